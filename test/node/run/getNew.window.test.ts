/**
 * Run → Get New's window (runWindow.ts, docs/runs.md "Bounded memory: the invariant"): how far a
 * sweep reads its store back, and the lateness it allows, in positions of the service's own list.
 * Queue mode (no static data): the store alone decides.
 */
import { endRun } from '../../../emulator/handlers/runs';
import { KEPT_RUNS, LATE_RUNS } from '../../../nodes/AlbatoSolutions/actions/run/runWindow';
import { usePartnerEmulator } from '../../support/partnerSetup';
import { customerWithTwoAutomations, runClock, watcher } from '../../support/sweeps';

const ctx = usePartnerEmulator();

const idsOf = (json: Array<{ id?: unknown }>) => json.map((run) => Number(run.id));

async function watched(customer: string, options: Parameters<typeof watcher>[1] = {}) {
	const emu = ctx.emu;
	const [b1, b2] = await customerWithTwoAutomations(emu, customer);
	const w = watcher(emu, { partner: true, staticData: 'lost', ...options });
	const context = { workflow: { id: w.workflowId }, node: { id: 'watch-node-id' } } as never;
	return {
		b1,
		b2,
		sweep: async () => await w.sweep([{ customer }]),
		storeCalls: () => w.store().calls,
		listSize: async () => await w.store().getProcessedDataCount('node', context),
	};
}

describe('Run → Get New: the window', () => {
	it('a customer unswept while 150 runs ended: the sweep that catches up returns each once, in a few store rounds', async () => {
		const emu = ctx.emu;
		const at = runClock();
		const c = await watched('gap');
		emu.recordRun({ bundleId: c.b1, outcome: 'succeeded', dateCreated: at() });
		await c.sweep();
		const gap = Array.from({ length: 150 }, (_, i) =>
			emu.recordRun({ bundleId: i % 2 ? c.b1 : c.b2, outcome: 'failed', dateCreated: at() }),
		);
		expect(await c.listSize()).toBe(2); // its run and its known record
		const callsBefore = c.storeCalls();
		const caught = await c.sweep();
		expect(idsOf(caught.json)).toEqual(gap.map((run) => run.id));
		// Rounds of 20, 40, 80 and the last 11 records, the markers' check, the keys recorded again.
		expect(c.storeCalls() - callsBefore).toBe(6);
		expect(await c.listSize()).toBe(KEPT_RUNS + 1);
		expect((await c.sweep()).json).toEqual([]);
	});

	it(`a run listed late: returned once down to ${LATE_RUNS} runs below the newest handled, not further`, async () => {
		const emu = ctx.emu;
		const at = runClock(Date.UTC(2026, 0, 2));
		const c = await watched('late');
		const early = Date.UTC(2026, 0, 1, 12);
		for (let i = 0; i < 30; i++)
			emu.recordRun({ bundleId: c.b1, outcome: 'succeeded', dateCreated: at() });
		await c.sweep();
		// Listed now, dated among the runs handled: 5 below the newest (returned), and 25 below (not).
		const within = emu.recordRun({ bundleId: c.b2, outcome: 'failed', dateCreated: at() - 5500 });
		const beyond = emu.recordRun({ bundleId: c.b2, outcome: 'failed', dateCreated: early });
		const news = emu.recordRun({ bundleId: c.b1, outcome: 'succeeded', dateCreated: at() });
		const swept = idsOf((await c.sweep()).json);
		expect(swept).toEqual([within.id, news.id]); // not \`beyond\`
		expect(idsOf((await c.sweep()).json)).not.toContain(beyond.id);
	});

	it('a run in progress while 30 newer runs ended: returned once when it ends, by its last step’s date', async () => {
		const emu = ctx.emu;
		const at = runClock();
		const c = await watched('slow');
		const slow = emu.recordRun({ bundleId: c.b1, outcome: 'inProgress', dateCreated: at() });
		const stuck = emu.recordRun({ bundleId: c.b1, outcome: 'inProgress', dateCreated: at() });
		const runs = Array.from({ length: 30 }, () =>
			emu.recordRun({ bundleId: c.b2, outcome: 'succeeded', dateCreated: at() }),
		);
		expect(idsOf((await c.sweep()).json)).toEqual(runs.map((run) => run.id));
		for (let i = 0; i < 30; i++)
			emu.recordRun({ bundleId: c.b2, outcome: 'succeeded', dateCreated: at() });
		await c.sweep();
		endRun(emu.state, slow.id, 'failed', at()); // its last step dated when it ended
		endRun(emu.state, stuck.id, 'failed'); // no later date: it ends where it started, 60 runs down
		expect(idsOf((await c.sweep()).json)).toEqual([slow.id]);
		expect((await c.sweep()).json).toEqual([]);
	});

	it.each(['lost', 'kept'] as const)(
		'a gap longer than the read (60 runs, Max Remembered Runs per Customer 10), static data %s: read again deeper, each run once',
		async (staticData) => {
			const emu = ctx.emu;
			const at = runClock();
			const c = await watched(`deep-${staticData}`, {
				staticData,
				parameters: { options: { maxRunsPerCustomer: 10 } },
			});
			emu.recordRun({ bundleId: c.b1, outcome: 'succeeded', dateCreated: at() });
			await c.sweep();
			const gap = Array.from({ length: 60 }, (_, i) =>
				emu.recordRun({ bundleId: i % 2 ? c.b1 : c.b2, outcome: 'failed', dateCreated: at() }),
			);
			const caught = await c.sweep();
			expect(idsOf(caught.json)).toEqual(gap.map((run) => run.id));
			expect((await c.sweep()).json).toEqual([]);
		},
	);
});

it(`a sweep whose read is older by fewer than ${LATE_RUNS} runs than another's removal: nothing twice (two workers)`, async () => {
	const emu = ctx.emu;
	const at = runClock();
	const customer = 'stale';
	const [b1] = await customerWithTwoAutomations(emu, customer);
	const options = { partner: true, staticData: 'lost' as const };
	const a = watcher(emu, options);
	const b = watcher(emu, { ...options, workflowId: a.workflowId, worker: 1 });
	const record = () => emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
	for (let i = 0; i < 25; i++) record();
	expect((await a.sweep([{ customer }])).json).toHaveLength(25);
	// B reads the list, then its first store call waits while 5 runs end and A returns them,
	// removing the records of those now 20 or more below the newest.
	const store = a.store();
	let paused = () => {};
	const bWaits = new Promise<void>((resolve) => (paused = resolve));
	let release = () => {};
	const released = new Promise<void>((resolve) => (release = resolve));
	let first = true;
	store.beforeRead = async () => {
		if (!first) return;
		first = false;
		paused();
		await released;
	};
	try {
		const stale = b.sweep([{ customer }]);
		await bWaits;
		const news = [1, 2, 3, 4, 5].map(record);
		expect(idsOf((await a.sweep([{ customer }])).json)).toEqual(news.map((run) => run.id));
		release();
		expect((await stale).json).toEqual([]); // the removed records were 15 to 19 down in its read
	} finally {
		store.beforeRead = undefined;
		release();
	}
});
