/**
 * The trigger's run and automation events at real run volume, time-lapsed (test/trigger/runVolume*):
 * one end user whose two automations run 50 times a day (the emulator's computed run stream,
 * emulator/runStream.ts), polled through n8n-core on the emulator's frozen clock, and what the polls
 * said set against the emulator's ground truth (`POST /__emulator/runs/truth`).
 */
import type { IDataObject } from 'n8n-workflow';

import { startEmulator, type Emulator } from '../../emulator';
import { knownAt, runAt, streamRunOf, streamsOf } from '../../emulator/runStream';
import { pollContext } from '../../harness';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { forTests } from '../../nodes/shared/transport/tokenCache';

export const MINUTE = 60_000;
export const DAY = 1440 * MINUTE;
export const WEEK = 7 * DAY;
/** The first poll: the customer's automations have run for a week already. */
export const T0 = Date.parse('2026-01-12T00:00:00Z');
export const BUNDLES = [7001, 7002];
export const STREAM = { bundleIds: BUNDLES, runsPerDay: 50, seed: 11, origin: T0 - WEEK };
const EVENTS = ['runFailed', 'runSucceeded', 'automationFailing', 'automationRecovered'];

/** A fresh emulator for the file; reset before each test. */
export function useVolumeEmulator(): { emu: Emulator } {
	const ctx = {} as { emu: Emulator };
	beforeAll(async () => {
		ctx.emu = await startEmulator({ port: 0 });
	});
	afterAll(async () => await ctx.emu.close());
	beforeEach(() => {
		ctx.emu.reset();
		forTests.clearEndUserTokenCache();
	});
	return ctx;
}

/** A control call over HTTP; its answer. */
export async function control(emu: Emulator, path: string, body: unknown): Promise<IDataObject> {
	const res = await fetch(`${emu.baseUrl}/__emulator/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(res.status).toBeLessThan(300);
	return (await res.json()) as IDataObject;
}

/** The emulator's clock frozen at `at`. */
export const setClock = async (emu: Emulator, at: number) =>
	await control(emu, 'clock', { now: new Date(at).toISOString(), freeze: true });

/** One poll of every run and automation event, on static data as n8n keeps it; its items. */
export async function poll(emu: Emulator, staticData: IDataObject): Promise<IDataObject[]> {
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
export function pagesRead(emu: Emulator): number {
	const pages = emu.requests.filter((entry) => entry.path === '/bundle/events').length;
	emu.requests.length = 0;
	return pages;
}

/**
 * The next poll after `at`: 10 to 30 minutes later on the first day of each week, 1 to 3 hours
 * later on the others (a fixed pseudo-random sequence: polls fall at every phase of the runs).
 */
export function pollTimes(): (at: number) => number {
	let x = 12345;
	return (at) => {
		x = (x * 1103515245 + 12345) % 2147483648;
		const firstDay = (((at - T0) % WEEK) + WEEK) % WEEK < DAY;
		return at + (firstDay ? 10 + (x % 21) : 60 + (x % 121)) * MINUTE;
	};
}

/**
 * What the polls said: how often each run and each incident was reported, the failed runs, and when
 * the polls were (emulator clock).
 */
export interface Said {
	run: Map<string, number>;
	failed: Set<string>;
	incidents: Map<string, number>;
	polls: number[];
}

export const nothingSaid = (): Said => ({
	run: new Map(),
	failed: new Set(),
	incidents: new Map(),
	polls: [],
});

/** One poll's items, polled at `at`. */
export function hear(items: IDataObject[], said: Said, at: number): void {
	said.polls.push(at);
	const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
	for (const item of items) {
		if (item.event === 'runFailed' || item.event === 'runSucceeded') {
			count(said.run, String(item.runId));
			if (item.event === 'runFailed') said.failed.add(String(item.runId));
		} else count(said.incidents, `${String(item.event)} ${String((item.run as IDataObject)?.id)}`);
	}
}

/** Pages read by the polls of one simulated week. */
export interface Week {
	polls: number;
	maxPages: number;
	pages: number;
}

/**
 * Polls from `from` to `to` at `next`'s times; the pages each poll read, by simulated week (from
 * T0). Each poll must read at most `maxPages` (it fails at once on a read that grows with the age).
 */
export async function pollSpan(
	{ emu, staticData, said }: { emu: Emulator; staticData: IDataObject; said: Said },
	[from, to]: [number, number],
	next: (at: number) => number,
	maxPages: number,
): Promise<Map<number, Week>> {
	const weeks = new Map<number, Week>();
	for (let at = from; at <= to; at = next(at)) {
		await setClock(emu, at);
		hear(await poll(emu, staticData), said, at);
		const pages = pagesRead(emu);
		expect(pages).toBeLessThanOrEqual(maxPages);
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

/** A stream run from its id. */
function streamRun(emu: Emulator, id: number) {
	const ref = streamRunOf(id)!;
	return { stream: streamsOf(emu.state).get(ref.bundleId)!, ...ref };
}

/** When a stream run started (its date in the list), from its id. */
export function runStart(emu: Emulator, id: string): number {
	const { stream, bundleId, index } = streamRun(emu, Number(id));
	return runAt(stream, bundleId, index).start;
}

/**
 * Whether an incident's run became known after the run next to it that decides it, with a poll in
 * between: a failed run known after the run after it had been reported (it opens nothing then), or
 * the last failed run known after the success had been (it resolves nothing then). The trigger
 * counts such a run in its streak and says nothing (docs/runs.md, "Group Into Incidents": a late
 * run only counts); the truth counts the incident.
 */
function decidedLate(emu: Emulator, runId: number, neighbour: -1 | 1, polls: number[]): boolean {
	const { stream, bundleId, index } = streamRun(emu, runId);
	const run = knownAt(runAt(stream, bundleId, index));
	const other = knownAt(runAt(stream, bundleId, index + neighbour));
	const [first, then] = neighbour === 1 ? [other, run] : [run, other];
	return polls.some((at) => at >= first && at < then);
}

/** What the polls said against the truth of the runs known in (from, to]. */
export async function verdict(emu: Emulator, said: Said, [from, to]: [number, number]) {
	const truth = await control(emu, 'runs/truth', {
		bundleIds: BUNDLES,
		from: from + 1,
		to: to + 1,
		runIds: true,
	});
	const runIds = (truth.runIds as number[]).map(String);
	const truthIds = new Set(runIds);
	const failed = runIds.filter((id) => {
		const { stream, bundleId, index } = streamRun(emu, Number(id));
		return runAt(stream, bundleId, index).failed;
	});
	const opened = (truth.opened as number[][]).map(([, runId]) => runId);
	const resolved = (truth.resolved as number[][]).map(([, runId]) => runId);
	const incidentKeys = [
		...opened
			.filter((id) => !decidedLate(emu, id, 1, said.polls))
			.map((id) => `automationFailing ${id}`),
		...resolved
			.filter((id) => !decidedLate(emu, id, -1, said.polls))
			.map((id) => `automationRecovered ${id}`),
	];
	return {
		runs: runIds.length,
		failed,
		twice: [...said.run.values()].filter((n) => n > 1).length,
		missed: runIds.filter((id) => !said.run.has(id)),
		invented: [...said.run.keys()].filter((id) => !truthIds.has(id)),
		opened: opened.length,
		resolved: resolved.length,
		decidedLate: opened.length + resolved.length - incidentKeys.length,
		incidentsTwice: [...said.incidents.values()].filter((n) => n > 1).length,
		incidentsMissed: incidentKeys.filter((key) => !said.incidents.has(key)),
		incidentsInvented: [...said.incidents.keys()].filter((key) => !incidentKeys.includes(key)),
	};
}
