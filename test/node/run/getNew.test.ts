/**
 * Run → Get New: each ended run once across executions, per customer, in partner mode
 * with many customers; n8n's deduplication store and static data as n8n keeps them between sweeps.
 */
import { endRun } from '../../../emulator/handlers/runs';
import { VARIANT_CHOICES } from '../../../emulator/render';
import { usePartnerEmulator } from '../../support/partnerSetup';
import { customerWithTwoAutomations, runClock, watcher } from '../../support/sweeps';

const ctx = usePartnerEmulator();

const idsOf = (json: Array<{ id?: unknown }>) => json.map((run) => Number(run.id));

describe('Run → Get New (partner mode, many customers)', () => {
	it('returns each ended run once over many sweeps, runs injected between and during sweeps', async () => {
		const emu = ctx.emu;
		const at = runClock();
		const customers = ['c1', 'c2', 'c3', 'c4'];
		const bundles: Record<string, number[]> = {};
		for (const id of customers) bundles[id] = await customerWithTwoAutomations(emu, id);
		const w = watcher(emu, { partner: true });
		const recorded = new Set<number>();
		const record = (customer: string, i: number, outcome: 'failed' | 'succeeded') =>
			recorded.add(
				emu.recordRun({ bundleId: bundles[customer][i % 2], outcome, dateCreated: at() }).id,
			);
		const returned: number[] = [];
		for (let round = 0; round < 8; round++) {
			for (const [n, customer] of customers.entries())
				for (let i = 0; i < ((round + n) % 3) + 1; i++)
					record(customer, i + round, i % 2 ? 'failed' : 'succeeded');
			// Runs recorded while the sweep waits for its first answer.
			emu.faults.add({ method: 'GET', path: '/bundle/events', delayMs: 60 });
			const during = new Promise<void>((resolve) =>
				setTimeout(() => {
					record('c1', round, 'failed');
					record('c4', round + 1, 'succeeded');
					resolve();
				}, 20),
			);
			const sweep = await w.sweep(customers.map((customer) => ({ customer })));
			await during;
			expect(sweep.errors).toEqual([]);
			returned.push(...idsOf(sweep.json));
		}
		const last = await w.sweep(customers.map((customer) => ({ customer })));
		returned.push(...idsOf(last.json));
		expect(returned.length).toBe(new Set(returned).size);
		expect(new Set(returned)).toEqual(recorded);
	});

	it.each(VARIANT_CHOICES.runStatuses.map((shape) => [shape]))(
		'returns a run in progress once it has ended, not before (statuses as %s)',
		async (runStatuses) => {
			const emu = ctx.emu;
			emu.setVariants({ runStatuses });
			const at = runClock();
			const [b1] = await customerWithTwoAutomations(emu, 'slow');
			const w = watcher(emu, { partner: true });
			const running = emu.recordRun({ bundleId: b1, outcome: 'inProgress', dateCreated: at() });
			const done = emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
			expect(idsOf((await w.sweep([{ customer: 'slow' }])).json)).toEqual([done.id]);
			expect((await w.sweep([{ customer: 'slow' }])).json).toEqual([]);
			endRun(emu.state, running.id, 'failed');
			const ended = await w.sweep([{ customer: 'slow' }]);
			expect(idsOf(ended.json)).toEqual([running.id]);
			expect(ended.json[0]).toMatchObject({ outcome: 'failed', endUserId: 'slow' });
			expect((await w.sweep([{ customer: 'slow' }])).json).toEqual([]);
		},
	);

	it('a customer that fails fails alone, paired, and keeps its memory; the next sweep catches up', async () => {
		const emu = ctx.emu;
		const at = runClock();
		const [a] = await customerWithTwoAutomations(emu, 'ok-1');
		const [b] = await customerWithTwoAutomations(emu, 'later');
		const w = watcher(emu, { partner: true, parameters: { filters: { status: 'failed' } } });
		const first = emu.recordRun({ bundleId: b, outcome: 'failed', dateCreated: at() });
		await w.sweep([{ customer: 'ok-1' }, { customer: 'later' }]);
		const missed = emu.recordRun({ bundleId: b, outcome: 'failed', dateCreated: at() });
		const other = emu.recordRun({ bundleId: a, outcome: 'failed', dateCreated: at() });
		// This sweep: no End User ID, an unknown customer, and the list of "later" failing (5xx).
		emu.faults.add({ method: 'GET', path: '/bundle/events', status: 503, times: 20 });
		const failing = await w.sweep([
			{ customer: 'ok-1' },
			{},
			{ customer: 'nobody' },
			{ customer: 'later' },
		]);
		expect(failing.json).toEqual([]);
		expect(failing.errors.length).toBe(4);
		expect(failing.errorPairs).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(String(failing.errors[1].error)).toMatch(/End User ID/);
		emu.faults.clear();
		const next = await w.sweep([
			{ customer: 'ok-1' },
			{},
			{ customer: 'nobody' },
			{ customer: 'later' },
		]);
		expect(next.errors.length).toBe(2);
		expect(next.errorPairs).toEqual([{ item: 1 }, { item: 2 }]);
		expect(idsOf(next.json).sort()).toEqual([other.id, missed.id].sort());
		expect(next.pairedItems).toEqual(
			next.json.map((run) => ({ item: run.endUserId === 'ok-1' ? 0 : 3 })),
		);
		expect(idsOf(next.json)).not.toContain(first.id);
	});

	it('a page that fails halfway through one customer fails that customer alone; the next sweep returns its runs once', async () => {
		const emu = ctx.emu;
		emu.setVariants({ pagination: 'headers' });
		const at = runClock();
		const [big] = await customerWithTwoAutomations(emu, 'big');
		const [small] = await customerWithTwoAutomations(emu, 'small');
		const w = watcher(emu, { partner: true });
		const items = [{ customer: 'big' }, { customer: 'small' }];
		for (let i = 0; i < 60; i++)
			emu.recordRun({ bundleId: big, outcome: 'failed', dateCreated: at() });
		emu.recordRun({ bundleId: small, outcome: 'failed', dateCreated: at() });
		// Page 2 (only "big" has one) fails on every try.
		emu.faults.add({
			method: 'GET',
			path: '/bundle/events',
			query: /(^|&)page=2(&|$)/,
			status: 400,
			times: 1,
		});
		const failing = await w.sweep(items);
		expect(failing.errorPairs).toEqual([{ item: 0 }]);
		expect(failing.json.map((run) => run.endUserId)).toEqual(['small']);
		expect(Object.keys(w.memory()!.customers)).toHaveLength(1); // big: nothing remembered
		const next = await w.sweep(items);
		expect(next.errors).toEqual([]);
		expect(next.json).toHaveLength(60);
		expect(new Set(next.json.map((run) => run.endUserId))).toEqual(new Set(['big']));
		expect((await w.sweep(items)).json).toEqual([]);
	});

	it('an execution that stops halfway (no error output) records nothing: the next one returns every run once', async () => {
		const emu = ctx.emu;
		const at = runClock();
		const [a] = await customerWithTwoAutomations(emu, 'h1');
		const w = watcher(emu, { partner: true });
		await w.sweep([{ customer: 'h1' }]);
		const run = emu.recordRun({ bundleId: a, outcome: 'failed', dateCreated: at() });
		const calls = w.store().calls;
		await expect(
			w.sweep([{ customer: 'h1' }, { customer: 'nobody' }], { onError: 'stopWorkflow' }),
		).rejects.toMatchObject({
			message: expect.stringMatching(/nobody|not found|404/i),
			context: { itemIndex: 1 },
		});
		expect(w.store().calls).toBe(calls);
		expect((await w.sweep([{ customer: 'h1' }])).json.map((r) => r.id)).toEqual([run.id]);
	});

	it('many customers in one sweep: each its own runs, paired to its item', async () => {
		const emu = ctx.emu;
		const at = runClock();
		const ids = Array.from({ length: 40 }, (_, i) => `fleet-${i}`);
		const runsOf = new Map<string, number[]>();
		for (const id of ids) {
			const [b1, b2] = await customerWithTwoAutomations(emu, id);
			runsOf.set(id, [
				emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() }).id,
				emu.recordRun({ bundleId: b2, outcome: 'succeeded', dateCreated: at() }).id,
			]);
		}
		const w = watcher(emu, { partner: true, parameters: { filters: { status: 'failed' } } });
		const items = ids.map((customer) => ({ customer }));
		const sweep = await w.sweep(items);
		expect(sweep.json.map((run) => [run.endUserId, run.id])).toEqual(
			ids.map((id) => [id, runsOf.get(id)![0]]),
		);
		expect(sweep.pairedItems).toEqual(ids.map((_, item) => ({ item })));
		const quiet = await w.sweep(items);
		expect(quiet.json).toEqual([]);
		expect(quiet.calls.filter((c) => c.startsWith('GET /bundle/events'))).toHaveLength(40);
		expect(quiet.calls.filter((c) => /get-user-session-token/.test(c))).toHaveLength(0);
	});
});
