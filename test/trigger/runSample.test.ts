/**
 * Run events through n8n-core's PollContext against the emulator (issue 33, points 4, 5 and 16):
 * Fetch Test Event carries the names a real event carries; the Solution filter applies to runs;
 * Installation ID (Run Events) is a picker at version 2 and still text at version 1.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { startEmulator, type Emulator } from '../../emulator';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { pollContext } from '../../harness';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(async () => await emu.close());
beforeEach(() => emu.reset());

function context(
	staticData: IDataObject,
	{
		mode = 'trigger',
		solutionId = '',
		installation,
		typeVersion,
	}: {
		mode?: 'trigger' | 'manual';
		solutionId?: string;
		installation?: unknown;
		typeVersion?: number;
	} = {},
): IPollFunctions {
	return pollContext({
		nodeType: new AlbatoSolutionsTrigger(),
		typeVersion,
		parameters: {
			events: ['runFailed'],
			solutionId: { __rl: true, mode: 'id', value: solutionId },
			...(installation === undefined ? {} : { runInstallationId: installation as string }),
		},
		credentials: { albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: emu.token() } },
		staticData,
		mode,
	});
}

async function poll(ctx: IPollFunctions) {
	const output = await new AlbatoSolutionsTrigger().poll.call(ctx);
	return output ? output[0].map((item) => item.json) : [];
}

describe('Run Failed: Fetch Test Event', () => {
	it('carries installationId, installationTitle and bundleTitle, as a real poll does', async () => {
		const [sample] = await poll(context({}, { mode: 'manual' }));
		const real = await (async () => {
			const staticData: IDataObject = {};
			await poll(context(staticData));
			emu.recordRun({ bundleId: 7001, outcome: 'failed', dateCreated: '2030-01-01 10:00:00' });
			return (await poll(context(staticData)))[0];
		})();
		for (const event of [sample, real]) {
			expect(event.installationId).toEqual(expect.any(Number));
			expect(event.installationTitle).toEqual(expect.any(String));
			expect(event.bundleTitle).toEqual(expect.any(String));
			expect((event.failedStep as IDataObject).title).toEqual(expect.any(String));
			expect(event.statusName).toBe('failed');
		}
		expect(sample).toMatchObject({ event: 'runFailed', installationId: 5001 });
		expect(Object.keys(sample).sort()).toEqual(Object.keys(real).sort());
	});
});

describe('the Solution filter applies to runs', () => {
	beforeEach(() => {
		// user-1's second installation becomes one of solution 102.
		emu.state.installations.get(5002)!.solutionId = 102;
	});

	it('a run of another solution is not reported; a run of the chosen one is', async () => {
		const staticData: IDataObject = {};
		const ctx = context(staticData, { solutionId: '102' });
		expect(await poll(ctx)).toEqual([]);
		emu.recordRun({ bundleId: 7001, outcome: 'failed', dateCreated: '2030-01-02 10:00:00' });
		const mine = emu.recordRun({
			bundleId: 7003,
			outcome: 'failed',
			dateCreated: '2030-01-02 10:00:01',
		});
		const events = await poll(ctx);
		expect(events.map((event) => [event.runId, event.installationId])).toEqual([[mine.id, 5002]]);
		// The run of solution 101 is known now: never reported later either.
		expect(await poll(context(staticData))).toEqual([]);
	});

	it('Fetch Test Event picks the newest run of the chosen solution', async () => {
		emu.recordRun({ bundleId: 7003, outcome: 'failed', dateCreated: '2030-01-03 09:00:00' });
		emu.recordRun({ bundleId: 7001, outcome: 'failed', dateCreated: '2030-01-03 10:00:00' });
		const [sample] = await poll(context({}, { mode: 'manual', solutionId: '102' }));
		expect(sample).toMatchObject({ installationId: 5002, bundleId: 7003 });
		emu.state.runHistory.runs.clear();
		await expect(poll(context({}, { mode: 'manual', solutionId: '102' }))).rejects.toThrow(
			'No finished runs of the chosen kind found of solution 102',
		);
	});

	it('with a Solution filter, a failed look-up fails the poll and keeps the baseline', async () => {
		const staticData: IDataObject = {};
		await poll(context(staticData, { solutionId: '102' }));
		const before = JSON.stringify(staticData);
		emu.recordRun({ bundleId: 7003, outcome: 'failed', dateCreated: '2030-01-04 10:00:00' });
		emu.faults.add({ method: 'GET', path: '/solution/installation', status: 500, times: 5 });
		await expect(poll(context(staticData, { solutionId: '102' }))).rejects.toThrow();
		expect(JSON.stringify(staticData)).toBe(before);
		emu.faults.clear();
		expect(await poll(context(staticData, { solutionId: '102' }))).toHaveLength(1);
	});
});

describe('Installation ID (Run Events)', () => {
	it('is a picker of the installations at version 2, and text at version 1', () => {
		const { properties } = new AlbatoSolutionsTrigger().description;
		const shown = properties.filter((property) => property.name === 'runInstallationId');
		expect(
			shown.map((property) => [property.type, property.displayOptions?.show?.['@version']]),
		).toEqual([
			['string', [1]],
			['resourceLocator', [{ _cnd: { gte: 2 } }]],
		]);
		expect(JSON.stringify(shown[1])).toContain('searchInstallations');
		expect(new AlbatoSolutionsTrigger().methods.listSearch).toHaveProperty('searchInstallations');
	});

	it.each([
		['version 2, picked from the list', 2, { __rl: true, mode: 'list', value: '5002' }],
		['version 2, a text saved by version 1', 2, '5002'],
		['version 1, text', 1, '5002'],
	])('%s: only that installation is read', async (_name, typeVersion, installation) => {
		const staticData: IDataObject = {};
		await poll(context(staticData, { installation, typeVersion }));
		emu.recordRun({ bundleId: 7001, outcome: 'failed', dateCreated: '2030-01-05 10:00:00' });
		const mine = emu.recordRun({
			bundleId: 7003,
			outcome: 'failed',
			dateCreated: '2030-01-05 10:00:01',
		});
		const events = await poll(context(staticData, { installation, typeVersion }));
		expect(events.map((event) => event.runId)).toEqual([mine.id]);
	});

	it('a name instead of an ID is refused before any request, with a fitting example', async () => {
		const first = emu.requests.length;
		await expect(
			poll(context({}, { installation: { __rl: true, mode: 'id', value: 'Globex' } })),
		).rejects.toThrow(
			'Installation ID (Run Events) must be an installation ID (a whole number, e.g. 5001), got "Globex"',
		);
		expect(emu.requests.length).toBe(first);
	});
});
