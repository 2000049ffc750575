/**
 * Run → Get New: what one sweep reads (issue 30, "cost per sweep"), and that stopping early is safe in
 * every order the emulator can list runs in: exactly once whatever the order, and fewer pages only
 * when the runs read show the list is newest first. Access Token credential (one end user).
 */
import { endRun } from '../../../emulator/handlers/runs';
import { useEmulator } from '../../support/setup';
import { runClock, watcher } from '../../support/sweeps';

const ctx = useEmulator();

const ORDERS = ['newest', 'oldest', 'idDesc', 'shuffled'] as const;
const listCalls = (calls: string[]) =>
	calls.filter((call) => call.startsWith('GET /bundle/events'));
const idsOf = (json: Array<{ id?: unknown }>) => json.map((run) => Number(run.id));

describe('Run → Get New: pages read per sweep', () => {
	it.each(ORDERS)('exactly once in the %s order, pages read as the order allows', async (order) => {
		const emu = ctx.emu;
		emu.setVariants({ pagination: 'headers', runOrder: order });
		const at = runClock();
		// user-1's fixture runs (2024) are history the first sweep returns too.
		const recorded = new Set<number>(
			emu
				.runs()
				.filter((run) => run.bundleId !== 7004)
				.map((run) => run.id),
		);
		const record = (
			bundleId: number,
			outcome: 'failed' | 'succeeded' | 'inProgress',
			earlier = 0,
		) => {
			const run = emu.recordRun({ bundleId, outcome, dateCreated: at() - earlier });
			if (outcome !== 'inProgress') recorded.add(run.id);
			return run;
		};
		// Some runs' ids are not in the order of their dates (what the idDesc order shows).
		for (let i = 0; i < 120; i++)
			record(i % 2 ? 7001 : 7003, i % 5 ? 'succeeded' : 'failed', i % 7 ? 0 : 50000);
		const slow = record(7001, 'inProgress');
		for (let i = 0; i < 60; i++) record(7003, 'succeeded'); // pushes the run in progress past page 1
		const w = watcher(emu);
		const returned: number[] = [];
		const pagesRead: number[] = [];
		for (let round = 0; round < 5; round++) {
			if (round === 2) {
				endRun(emu.state, slow.id, 'failed', at()); // its last step dated when it ended
				recorded.add(slow.id);
			}
			if (round > 0 && round !== 3) for (let i = 0; i < 3; i++) record(7001, 'failed');
			const sweep = await w.sweep([{}]);
			expect(sweep.errors).toEqual([]);
			returned.push(...idsOf(sweep.json));
			pagesRead.push(listCalls(sweep.calls).length);
		}
		expect(returned.length).toBe(new Set(returned).size);
		expect(new Set(returned)).toEqual(recorded);
		expect(returned).toContain(slow.id);
		// 4 fixture runs + 181 recorded + 9 more: 4 pages of 50.
		if (order === 'newest') {
			// First sweep: the whole list (fewer than the 200 runs the memory holds). Then down to the
			// first page of known runs once the run in progress (page 2) is met: 3 pages, also the
			// sweep where it has ended; then 1 page with nothing new, 2 with something new.
			expect(pagesRead).toEqual([4, 3, 3, 1, 2]);
		} else if (order === 'idDesc') {
			// Newest id first: new runs come first too. The node stops early only where the runs it read
			// are in date order (page 1 alone, when nothing is new); pages 1–3 show dates out of order.
			expect(pagesRead).toEqual([4, 4, 4, 1, 4]);
		} else {
			expect(pagesRead).toEqual([4, 4, 4, 4, 4]);
		}
	});

	it('with one installation, reads that installation and its automations only', async () => {
		const emu = ctx.emu;
		const w = watcher(emu, {
			parameters: {
				runsOf: 'installation',
				installationId: { __rl: true, mode: 'id', value: '5002' },
			},
		});
		const sweep = await w.sweep([{}]);
		expect(sweep.calls.map((call) => call.split('?')[0])).toEqual([
			'GET /solution/installation/5002',
			'GET /bundle/events',
		]);
		expect(sweep.json.map((run) => [run.bundleId, run.installationId, run.bundleTitle])).toEqual([
			[7003, 5002, expect.any(String)],
		]);
		expect((await w.sweep([{}])).json).toEqual([]);
	});

	it('without a filter, one list of the end user; installations are named only when a run is new', async () => {
		const emu = ctx.emu;
		const w = watcher(emu);
		const first = await w.sweep([{}]);
		expect(first.calls.map((call) => call.split('?')[0])).toEqual([
			'GET /bundle/events',
			'GET /solution/installation',
			'GET /solution/installation/5001',
			'GET /solution/installation/5002',
		]);
		expect(first.json.map((run) => run.installationId)).toEqual([5001, 5001, 5002]);
		const quiet = await w.sweep([{}]);
		expect(quiet.json).toEqual([]);
		expect(quiet.calls.map((call) => call.split('?')[0])).toEqual(['GET /bundle/events']);
	});
});

it('names installations only for runs the Status filter lets through', async () => {
	const emu = ctx.emu;
	const w = watcher(emu, { parameters: { filters: { status: 'succeeded' } } });
	await w.sweep([{}]); // the fixtures: succeeded runs, named
	emu.recordRun({ bundleId: 7001, outcome: 'failed' });
	const quiet = await w.sweep([{}]);
	expect(quiet.json).toEqual([]);
	expect(quiet.calls.map((call) => call.split('?')[0])).toEqual(['GET /bundle/events']);
});

it('with Group Into Incidents, names installations only for a customer with an incident to report', async () => {
	const emu = ctx.emu;
	const w = watcher(emu, { parameters: { groupIntoIncidents: true } });
	const paths = (sweep: { calls: string[] }) => sweep.calls.map((call) => call.split('?')[0]);
	// The fixtures' first sweep: still-failing automations (7001) are news; named once.
	expect((await w.sweep([{}])).json.map((item) => item.bundleId)).toContain(7001);
	emu.recordRun({ bundleId: 7001, outcome: 'succeeded' });
	const recovered = await w.sweep([{}]);
	expect(recovered.json.map((item) => item.event)).toEqual(['incidentResolved']);
	expect(paths(recovered)).toContain('GET /solution/installation');
	emu.recordRun({ bundleId: 7001, outcome: 'succeeded' });
	const quiet = await w.sweep([{}]); // a success after a success: nothing to report
	expect(quiet.json).toEqual([]);
	expect(paths(quiet)).toEqual(['GET /bundle/events']);
	emu.recordRun({ bundleId: 7001, outcome: 'failed' });
	const failing = await w.sweep([{}]);
	expect(failing.json.map((item) => item.event)).toEqual(['incidentOpened']);
	expect(failing.json[0]).toMatchObject({ installationId: 5001, bundleTitle: expect.any(String) });
	expect(paths(failing)).toContain('GET /solution/installation');
	emu.recordRun({ bundleId: 7001, outcome: 'failed' });
	const still = await w.sweep([{}]); // failing on: nothing to report, nothing named
	expect(still.json).toEqual([]);
	expect(paths(still)).toEqual(['GET /bundle/events']);
	emu.recordRun({ bundleId: 7001, outcome: 'succeeded' });
	const resolved = await w.sweep([{}]);
	expect(resolved.json.map((item) => item.event)).toEqual(['incidentResolved']);
	expect(resolved.json[0]).toMatchObject({
		installationId: 5001,
		bundleTitle: expect.any(String),
		failedRuns: 2,
	});
	expect(paths(resolved)).toContain('GET /solution/installation');
});
