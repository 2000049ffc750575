/**
 * Run Failed / Run Succeeded through n8n-core's PollContext against the emulator: the first poll is
 * a baseline; a failed run appears between polls 2 and 3, one poll is unreadable, a run is in
 * progress across two polls: exactly one Run Failed per failed run, none invented or repeated.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { startEmulator, type Emulator } from '../../emulator';
import { RUN_STATUS } from '../../emulator/handlers/runs';
import type { Variants } from '../../emulator/types';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { MAX_KNOWN, detectRunEvents } from '../../nodes/AlbatoSolutionsTrigger/runEvents';
import { forTests } from '../../nodes/shared/transport/tokenCache';
import { pollContext } from '../../harness';

const { clearEndUserTokenCache } = forTests;

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(async () => await emu.close());
beforeEach(() => {
	emu.reset();
	clearEndUserTokenCache();
});

function context(
	staticData: IDataObject,
	{
		events = ['runFailed'],
		installation = '',
		mode = 'trigger',
		partner,
	}: {
		events?: string[];
		installation?: string;
		mode?: 'trigger' | 'manual';
		partner?: string;
	} = {},
): IPollFunctions {
	return pollContext({
		nodeType: new AlbatoSolutionsTrigger(),
		parameters: {
			events,
			runInstallationId: installation,
			...(partner ? { authentication: 'partnerApi', endUserId: partner } : {}),
		},
		credentials: partner
			? {
					albatoPartnerApi: {
						baseUrl: emu.baseUrl,
						partnerName: emu.partner.name,
						masterToken: emu.partner.masterToken,
					},
				}
			: { albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: emu.token() } },
		staticData,
		mode,
	});
}

async function poll(ctx: IPollFunctions) {
	const output = await new AlbatoSolutionsTrigger().poll.call(ctx);
	return output ? output[0].map((item) => item.json) : [];
}

const VARIANTS: Array<[string, Partial<Variants>]> = [
	['default', {}],
	['flat steps', { runSteps: 'flat' }],
	['ISO dates', { runDates: 'iso' }],
	['ids as strings', { stringIds: true }],
	['bare, lists as maps', { bare: true, listShape: 'map' }],
	['paged by headers', { pagination: 'headers' }],
	['paged in the body', { pagination: 'body' }],
];

describe('Run Failed over 5 polls', () => {
	it.each(VARIANTS)('exactly one Run Failed per failed run (%s)', async (_name, variants) => {
		emu.setVariants(variants);
		const staticData: IDataObject = {};
		const ctx = context(staticData, { events: ['runFailed', 'runSucceeded'] });

		// Poll 1: the baseline (fixture history, one failed run among it): nothing reported.
		const running = emu.recordRun({
			bundleId: 7002,
			outcome: 'inProgress',
			dateCreated: '2024-06-01 09:00:00',
		});
		expect(await poll(ctx)).toEqual([]);
		// Poll 2: nothing new.
		expect(await poll(ctx)).toEqual([]);
		// Between polls 2 and 3: a run fails.
		const failed = emu.recordRun({
			bundleId: 7001,
			outcome: 'failed',
			dateCreated: '2024-06-01 10:00:00',
			steps: [[{}], [{ status: 'failed', error: 'Boom: CRM refused the lead' }]],
		});
		// Poll 3 is unreadable (page 2 or the only page): nothing emitted, the baseline kept.
		emu.faults.add({ method: 'GET', path: '/bundle/events', malformedJson: true, times: 1 });
		await expect(poll(ctx)).rejects.toThrow(/not valid JSON/);
		// Poll 4: the failed run, once; the in-progress run still not reported.
		const fourth = await poll(ctx);
		expect(fourth.map((e) => [e.event, e.runId])).toEqual([['runFailed', failed.id]]);
		expect(fourth[0]).toMatchObject({
			bundleId: 7001,
			installationId: 5001,
			outcome: 'failed',
			failedStep: { error: 'Boom: CRM refused the lead', stepLevel: 2, triggerActionId: 9002 },
			dateCreated: '2024-06-01T10:00:00.000Z',
		});
		// The in-progress run ends, failed. Poll 5: reported once, as it ended.
		emu.runs().find((r) => r.id === running.id)!.status = RUN_STATUS.failed;
		const last = emu
			.runs()
			.find((r) => r.id === running.id)!
			.steps.at(-1)!;
		last[0].status = RUN_STATUS.failed;
		last[0].error = 'Timed out';
		const fifth = await poll(ctx);
		expect(fifth.map((e) => [e.event, e.runId])).toEqual([['runFailed', running.id]]);
		// And never again.
		expect(await poll(ctx)).toEqual([]);
		expect(JSON.stringify(staticData).length).toBeLessThan(2000);
	});
});

describe('Run events', () => {
	it('Run Succeeded only: a failed run is not reported, a succeeded one is', async () => {
		const staticData: IDataObject = {};
		const ctx = context(staticData, { events: ['runSucceeded'] });
		expect(await poll(ctx)).toEqual([]);
		emu.recordRun({ bundleId: 7001, outcome: 'failed', dateCreated: '2024-06-02 10:00:00' });
		const ok = emu.recordRun({
			bundleId: 7003,
			outcome: 'succeeded',
			dateCreated: '2024-06-02 10:01:00',
		});
		expect((await poll(ctx)).map((e) => [e.event, e.runId, e.installationId])).toEqual([
			['runSucceeded', ok.id, 5002],
		]);
	});

	it('limited to one installation: reads its automations, then their runs; others are not reported', async () => {
		const staticData: IDataObject = {};
		const ctx = context(staticData, { installation: '5002' });
		expect(await poll(ctx)).toEqual([]);
		emu.recordRun({ bundleId: 7001, outcome: 'failed', dateCreated: '2024-06-03 10:00:00' });
		const mine = emu.recordRun({
			bundleId: 7003,
			outcome: 'failed',
			dateCreated: '2024-06-03 10:00:01',
		});
		const first = emu.requests.length;
		const events = await poll(ctx);
		expect(events.map((e) => e.runId)).toEqual([mine.id]);
		expect(events[0]).toMatchObject({ installationId: 5002 });
		expect(emu.requests.slice(first).map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /solution/installation/5002',
			'GET /bundle/events',
		]);
	});

	it('partner mode: watches the End User ID, and says who in endUserId', async () => {
		await fetch(`${emu.baseUrl}/wl/${emu.partner.name}/add-user`, {
			method: 'POST',
			headers: {
				Authorization: `Basic ${emu.partner.masterToken}`,
				'Content-Type': 'application/json',
			},
			body: JSON.stringify({ id: 'cust-9' }),
		});
		emu.state.installations.get(5002)!.userId = `${emu.partner.name}:cust-9`;
		const staticData: IDataObject = {};
		const ctx = context(staticData, { partner: 'cust-9' });
		expect(await poll(ctx)).toEqual([]);
		emu.recordRun({ bundleId: 7001, outcome: 'failed', dateCreated: '2024-06-04 10:00:00' }); // user-1's
		const theirs = emu.recordRun({
			bundleId: 7003,
			outcome: 'failed',
			dateCreated: '2024-06-04 10:00:01',
		});
		const events = await poll(ctx);
		expect(events.map((e) => [e.runId, e.endUserId])).toEqual([[theirs.id, 'cust-9']]);
		expect(JSON.stringify(events)).not.toContain(emu.partner.masterToken);
	});

	it('Fetch Test Event: the newest failed run, baseline untouched', async () => {
		const staticData: IDataObject = {};
		const events = await poll(context(staticData, { mode: 'manual' }));
		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject({ event: 'runFailed', outcome: 'failed' });
		expect(JSON.stringify(staticData)).not.toContain('runEvents');
	});

	it('Fetch Test Event with installation and run events: an installation sample when no run finished', async () => {
		emu.state.runHistory.runs.clear();
		const events = ['installationCreated', 'runFailed', 'runSucceeded'];
		const items = await poll(context({}, { mode: 'manual', events }));
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ event: 'installationCreated' });
		expect(items[0]).not.toHaveProperty('runId');
		const runOnly = poll(context({}, { mode: 'manual', events: ['runFailed'] }));
		await expect(runOnly).rejects.toThrow('No finished runs of the chosen kind found');
		for (const [id, installation] of emu.state.installations)
			if (installation.userId === 'user-1') emu.state.installations.delete(id);
		await expect(poll(context({}, { mode: 'manual', events }))).rejects.toThrow(
			'No finished runs of the chosen kind found; no installations found for this end user',
		);
	});

	it('a bad Installation ID is refused before any request', async () => {
		const first = emu.requests.length;
		await expect(poll(context({}, { installation: 'abc' }))).rejects.toThrow(
			/Installation ID \(Run Events\)/,
		);
		expect(emu.requests.length).toBe(first);
	});
});

describe('detectRunEvents stays bounded', () => {
	const run = (id: number, minute: number, status = 1) => ({
		id,
		status,
		dateCreated: `2024-01-01 ${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`,
	});
	it(`keeps at most ${MAX_KNOWN} runs, and does not report the ones it let go of`, () => {
		const history = Array.from({ length: MAX_KNOWN + 100 }, (_, i) => run(i + 1, i % 1400));
		const sorted = history.sort((a, b) => a.dateCreated.localeCompare(b.dateCreated));
		const first = detectRunEvents(undefined, 's', sorted, new Set(['runSucceeded']), 0);
		expect(Object.keys(first.next.known)).toHaveLength(MAX_KNOWN);
		expect(first.next.floor).toBeDefined();
		const again = detectRunEvents(
			first.next,
			's',
			[...sorted, run(99999, 1439)],
			new Set(['runSucceeded']),
			0,
		);
		expect(again.events.map((e) => e.run.id)).toEqual([99999]);
	});
});
