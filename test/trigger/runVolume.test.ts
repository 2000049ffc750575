/**
 * The trigger's run and automation events at real run volume, time-lapsed: one end user, two
 * automations at 50 runs a day (the emulator's computed run stream, emulator/runStream.ts), polls
 * every 10 to 30 simulated minutes (1 to 3 hours after each week's first day) on the emulator's
 * frozen clock for weeks, and the trigger off for a week in between. Checked against the emulator's ground truth (`POST /__emulator/runs/truth`):
 * every ended run reported once as Run Failed or Run Succeeded, none missed; each incident once;
 * and the pages of `GET /bundle/events` read per poll bounded, the same in the last week as in the
 * first (docs/trigger.md, "How far a poll reads the runs").
 */
import type { IDataObject } from 'n8n-workflow';

import { startEmulator, type Emulator } from '../../emulator';
import { knownAt, runAt, streamRunOf, streamsOf, type Stream } from '../../emulator/runStream';
import { pollContext } from '../../harness';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { forTests } from '../../nodes/shared/transport/tokenCache';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const WEEK = 7 * DAY;
/** The first poll: the customer's automations have run for a week already. */
const T0 = Date.parse('2026-01-12T00:00:00Z');
const BUNDLES = [7001, 7002];
const EVENTS = ['runFailed', 'runSucceeded', 'automationFailing', 'automationRecovered'];
/** Pages a steady poll may read (a poll reads about an hour of runs: 1 page of 20 here). */
const STEADY_PAGES = 2;

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(async () => await emu.close());
beforeEach(() => {
	emu.reset();
	forTests.clearEndUserTokenCache();
});

const control = async (path: string, body: unknown) => {
	const res = await fetch(`${emu.baseUrl}/__emulator/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(res.status).toBeLessThan(300);
	return (await res.json()) as IDataObject;
};
const setClock = async (at: number) =>
	await control('clock', { now: new Date(at).toISOString(), freeze: true });

/** One poll of every run and automation event, on static data as n8n keeps it; its items. */
async function poll(staticData: IDataObject): Promise<IDataObject[]> {
	const trigger = new AlbatoSolutionsTrigger();
	const output = await trigger.poll.call(
		pollContext({
			nodeType: trigger,
			parameters: { events: EVENTS, runInstallationId: '' },
			credentials: { albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: emu.token() } },
			staticData,
			mode: 'trigger',
		}),
	);
	return (output?.[0] ?? []).map(({ json }) => json);
}

/** Pages of runs read since the last call (the emulator's request log, then cleared). */
function pagesRead(): number {
	const pages = emu.requests.filter((entry) => entry.path === '/bundle/events').length;
	emu.requests.length = 0;
	return pages;
}

/**
 * The next poll after `at`: 10 to 30 minutes later on the first day of each week, 1 to 3 hours
 * later on the others (a fixed pseudo-random sequence: polls fall at every phase of the runs).
 */
const next = (() => {
	let x = 12345;
	return (at: number) => {
		x = (x * 1103515245 + 12345) % 2147483648;
		const firstDay = (at - T0) % WEEK < DAY;
		return at + (firstDay ? 10 + (x % 21) : 60 + (x % 121)) * MINUTE;
	};
})();

interface Said {
	run: Map<string, number>;
	failed: Set<string>;
	incidents: Map<string, number>;
}

function hear(items: IDataObject[], said: Said): void {
	const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
	for (const item of items) {
		const run = item.run as IDataObject | undefined;
		if (item.event === 'runFailed' || item.event === 'runSucceeded') {
			count(said.run, String(item.runId));
			if (item.event === 'runFailed') said.failed.add(String(item.runId));
		} else count(said.incidents, `${String(item.event)} ${String(run?.id)}`);
	}
}

interface Week {
	polls: number;
	maxPages: number;
	pages: number;
}

/** Polls from `from` to `to` (see `next`); the pages of each poll, by week. */
async function pollSpan(staticData: IDataObject, from: number, to: number, said: Said) {
	const weeks = new Map<number, Week>();
	for (let at = from; at <= to; at = next(at)) {
		await setClock(at);
		hear(await poll(staticData), said);
		const pages = pagesRead();
		// Fails at once on a read that grows with the customer's history.
		expect(pages).toBeLessThanOrEqual(STEADY_PAGES);
		const week = Math.floor((at - T0) / WEEK) + 1;
		const figures = weeks.get(week) ?? { polls: 0, maxPages: 0, pages: 0 };
		weeks.set(week, {
			polls: figures.polls + 1,
			maxPages: Math.max(figures.maxPages, pages),
			pages: figures.pages + pages,
		});
	}
	return weeks;
}

/** A stream run's automation stream, and the run itself, from its id. */
function streamRun(id: number): { stream: Stream; bundleId: number; index: number } {
	const ref = streamRunOf(id)!;
	return { stream: streamsOf(emu.state).get(ref.bundleId)!, ...ref };
}

/**
 * Whether an incident's event run became known after the run next to it that decides it (a run
 * listed late after a newer run of its automation was reported): the trigger counts it in its
 * streak and says nothing (docs/runs.md, "Group Into Incidents"); the truth counts the incident.
 */
function decidedLate(runId: number, neighbour: -1 | 1): boolean {
	const { stream, bundleId, index } = streamRun(runId);
	const run = runAt(stream, bundleId, index);
	const other = runAt(stream, bundleId, index + neighbour);
	return neighbour === 1 ? knownAt(run) > knownAt(other) : knownAt(other) > knownAt(run);
}

it('a month and a half of polls and a week off: each run once, none missed, pages flat', async () => {
	await setClock(T0);
	await control('runs/stream', { bundleIds: BUNDLES, runsPerDay: 50, seed: 11, origin: T0 - WEEK });
	const staticData: IDataObject = {};
	const said: Said = { run: new Map(), failed: new Set(), incidents: new Map() };

	const firstItems = await poll(staticData);
	const firstPages = pagesRead();
	expect(firstItems.every((item) => item.event === 'automationFailing')).toBe(true);

	const before = await pollSpan(staticData, next(T0), T0 + 3 * WEEK, said);
	// The trigger is off for a week (its static data saved and loaded again), then polls on.
	const saved = JSON.parse(JSON.stringify(staticData)) as IDataObject;
	const back = T0 + 4 * WEEK;
	await setClock(back);
	hear(await poll(saved), said);
	const catchUpPages = pagesRead();
	const after = await pollSpan(saved, next(back), T0 + 6 * WEEK, said);
	const last = emu.clock.now();

	const truth = await control('runs/truth', {
		bundleIds: BUNDLES,
		from: T0 + 1,
		to: last + 1,
		runIds: true,
	});
	const truthIds = (truth.runIds as number[]).map(String);
	const twice = [...said.run.values()].filter((n) => n > 1).length;
	const missed = truthIds.filter((id) => !said.run.has(id));
	const invented = [...said.run.keys()].filter((id) => !truthIds.includes(id));
	const failedTruth = truthIds.filter((id) => {
		const { stream, bundleId, index } = streamRun(Number(id));
		return runAt(stream, bundleId, index).failed;
	});

	const opened = (truth.opened as number[][]).map(([, runId]) => runId);
	const resolved = (truth.resolved as number[][]).map(([, runId]) => runId);
	const incidentKeys = [
		...opened.filter((id) => !decidedLate(id, 1)).map((id) => `automationFailing ${id}`),
		...resolved.filter((id) => !decidedLate(id, -1)).map((id) => `automationRecovered ${id}`),
	];
	const incidentsTwice = [...said.incidents.values()].filter((n) => n > 1).length;
	const incidentsMissed = incidentKeys.filter((key) => !said.incidents.has(key));

	const week1 = before.get(1)!;
	const week6 = after.get(6)!;
	console.log(
		`trigger at 50 runs a day × 2 automations: ${truthIds.length} runs (${failedTruth.length} failed), ` +
			`${twice} twice, ${missed.length} missed, ${invented.length} invented; incidents ${opened.length} opened, ` +
			`${resolved.length} resolved (truth; ${opened.length + resolved.length - incidentKeys.length} decided by a run listed late), ${incidentsTwice} twice, ${incidentsMissed.length} missed; ` +
			`pages: first poll ${firstPages}, week 1 ${week1.polls} polls max ${week1.maxPages} ` +
			`mean ${(week1.pages / week1.polls).toFixed(2)}, catch-up after a week off ${catchUpPages}, ` +
			`week 6 ${week6.polls} polls max ${week6.maxPages} mean ${(week6.pages / week6.polls).toFixed(2)}; ` +
			`static data ${JSON.stringify(saved).length} bytes`,
	);
	expect({ twice, missed, invented }).toEqual({ twice: 0, missed: [], invented: [] });
	expect([...said.failed].sort()).toEqual([...failedTruth].sort());
	expect({ incidentsTwice, incidentsMissed }).toEqual({ incidentsTwice: 0, incidentsMissed: [] });
	expect(week6.maxPages).toBeLessThanOrEqual(week1.maxPages);
	expect(catchUpPages).toBeLessThan(60);
}, 180_000);
