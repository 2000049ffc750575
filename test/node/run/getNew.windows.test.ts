/**
 * Run → Get New from node version 5 sweeps by windows of time (docs/runs.md, "Sweep windows"):
 * each ended run once, after its Allowed Lateness, across sweeps, workers, failures and time; the
 * store holds the group's ticks only, whatever the fleet and its age. Queue mode: no static data.
 */
import { realNow, useNodeClock } from '../../support/nodeClock';
import { LOOKBACK_TICKS, TICK_MS } from '../../../nodes/AlbatoSolutions/actions/run/window/ticks';
import { usePartnerEmulator } from '../../support/partnerSetup';
import { customerWithTwoAutomations, watcher } from '../../support/sweeps';

const ctx = usePartnerEmulator();
const MINUTE = 60_000;
/** The node's clock (Date.now) set to `at` by setNow. */
const { setNow } = useNodeClock();

/** A fresh start on a tick, far from today's runs of other tests. */
const startAt = () => Math.floor((realNow() + 400 * 24 * 60 * MINUTE) / TICK_MS) * TICK_MS;
const ids = (json: Array<{ id?: unknown }>) => json.map((run) => Number(run.id));
const windowed = (options: Record<string, unknown> = {}, more: Record<string, unknown> = {}) => ({
	parameters: { options: { latenessMinutes: 10, ...options }, ...more },
});

/** The records of this workflow's node in n8n's store. */
const listSize = (w: ReturnType<typeof watcher>) =>
	[...w.store().rows]
		.filter(([context]) => context.startsWith(`${w.workflowId}\u0000n:`))
		.reduce((size, [, row]) => size + row.data.length, 0);

async function fleet(names: string[]) {
	return await Promise.all(names.map(async (id) => await customerWithTwoAutomations(ctx.emu, id)));
}

it('each run once, after its lateness, over 5 sweeps of 3 customers; the first sweep returns the newest runs before its window', async () => {
	const emu = ctx.emu;
	const t0 = startAt();
	const names = ['w-a', 'w-b', 'w-c'];
	const bundles = await fleet(names);
	const items = names.map((customer) => ({ customer }));
	const w = watcher(emu, { partner: true, staticData: 'lost', version: 5, ...windowed() });
	const old = bundles.map(([b1]) =>
		emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: t0 - 3 * 60 * MINUTE }),
	);
	setNow(t0);
	const first = await w.sweep(items);
	expect(first.errors).toEqual([]);
	expect(ids(first.json).sort()).toEqual(old.map((run) => run.id).sort());
	const recorded: number[] = [];
	const returned: number[] = [];
	for (let sweep = 1; sweep <= 5; sweep++) {
		const at = t0 + sweep * 15 * MINUTE;
		for (const [b1, b2] of bundles)
			for (const [bundleId, ago] of [
				[b1, 14],
				[b2, 9],
				[b1, 3],
			])
				recorded.push(
					emu.recordRun({
						bundleId,
						outcome: ago === 3 ? 'failed' : 'succeeded',
						dateCreated: at - ago * MINUTE,
					}).id,
				);
		setNow(at);
		const answer = await w.sweep(items);
		expect(answer.errors).toEqual([]);
		returned.push(...ids(answer.json));
		// Nothing is returned before its lateness (10 minutes) and its tick have passed.
		for (const run of answer.json)
			expect(Date.parse(String(run.dateCreated))).toBeLessThan(at - 10 * MINUTE);
	}
	setNow(t0 + 6 * 15 * MINUTE + 30 * MINUTE);
	returned.push(...ids((await w.sweep(items)).json));
	expect(new Set(returned).size).toBe(returned.length);
	expect(returned.sort()).toEqual(recorded.sort());
	// The group's ticks for the lookback and a few window marks: nothing per customer or run.
	expect(listSize(w)).toBeLessThanOrEqual(2 * LOOKBACK_TICKS + 20);
});

it('two workers sweeping at the same instant, 4 times, their store calls meeting: each run returned by one of them only', async () => {
	const emu = ctx.emu;
	const t0 = startAt();
	const names = ['x-a', 'x-b'];
	const bundles = await fleet(names);
	const items = names.map((customer) => ({ customer }));
	const workflowId = `wf-x-${Math.random()}`;
	const shared = { partner: true, staticData: 'lost' as const, version: 5, workflowId };
	const one = watcher(emu, { ...shared, ...windowed() });
	const two = watcher(emu, { ...shared, worker: 1, ...windowed() });
	setNow(t0);
	await one.sweep(items);
	const recorded: number[] = [];
	const returned: number[] = [];
	// n8n's store between its read and its write for 5 ms: calls of the two workers meet there.
	one.store().betweenReadAndWrite = async () => await new Promise((done) => setTimeout(done, 5));
	const overlapsBefore = one.store().overlaps;
	for (let sweep = 1; sweep <= 4; sweep++) {
		const at = t0 + sweep * 30 * MINUTE;
		for (const [b1, b2] of bundles)
			for (const bundleId of [b1, b2])
				recorded.push(
					emu.recordRun({ bundleId, outcome: 'failed', dateCreated: at - 20 * MINUTE }).id,
				);
		setNow(at);
		const answers = await Promise.all([one.sweep(items), two.sweep(items)]);
		for (const answer of answers) {
			expect(answer.errors).toEqual([]);
			returned.push(...ids(answer.json));
		}
	}
	one.store().betweenReadAndWrite = undefined;
	expect(one.store().overlaps).toBeGreaterThan(overlapsBefore);
	expect(new Set(returned).size).toBe(returned.length);
	expect(returned.sort()).toEqual(recorded.sort());
});

it('a sweep that fails as a whole returns nothing; a sweep after the lease sweeps its window too, once', async () => {
	const emu = ctx.emu;
	const t0 = startAt();
	const [[b1]] = await fleet(['f-a']);
	const items = [{ customer: 'f-a' }, { customer: 'f-unknown' }];
	const w = watcher(emu, { partner: true, staticData: 'lost', version: 5, ...windowed() });
	setNow(t0);
	await w.sweep([{ customer: 'f-a' }]);
	const lost = emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: t0 + 5 * MINUTE });
	setNow(t0 + 30 * MINUTE);
	const failed = await w.sweep(items, { onError: 'stopWorkflow' }).then(
		() => false,
		() => true,
	);
	expect(failed).toBe(true);
	// Within the lease: its window is still the failed execution's.
	setNow(t0 + 45 * MINUTE);
	expect(ids((await w.sweep([{ customer: 'f-a' }])).json)).toEqual([]);
	setNow(t0 + 90 * MINUTE);
	expect(ids((await w.sweep([{ customer: 'f-a' }])).json)).toEqual([lost.id]);
	setNow(t0 + 120 * MINUTE);
	expect(ids((await w.sweep([{ customer: 'f-a' }])).json)).toEqual([]);
});

it('a customer that fails alone (error output): the others are returned now, its runs by a sweep after the lease, once', async () => {
	const emu = ctx.emu;
	const t0 = startAt();
	const [[b1]] = await fleet(['g-a']);
	const items = [{ customer: 'g-a' }, { customer: 'g-late' }];
	const w = watcher(emu, { partner: true, staticData: 'lost', version: 5, ...windowed() });
	setNow(t0);
	await w.sweep([{ customer: 'g-a' }]);
	const a = emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: t0 + 5 * MINUTE });
	setNow(t0 + 30 * MINUTE);
	const partial = await w.sweep(items);
	expect(partial.errors).toHaveLength(1);
	expect(ids(partial.json)).toEqual([a.id]);
	// The failed customer exists now; its run in the failed window is returned after the lease.
	const [[late]] = await fleet(['g-late']);
	const owed = emu.recordRun({ bundleId: late, outcome: 'failed', dateCreated: t0 + 6 * MINUTE });
	const returned: number[] = [];
	for (const minutes of [45, 90, 105, 150]) {
		setNow(t0 + minutes * MINUTE);
		const answer = await w.sweep(items);
		expect(answer.errors).toEqual([]);
		returned.push(...ids(answer.json));
	}
	expect(returned).toEqual([owed.id]);
});

it('two sweep groups (a fan-out of two batches) each return their own customers; one group for two item values is refused', async () => {
	const emu = ctx.emu;
	const t0 = startAt();
	const [[b1], [b2]] = await fleet(['h-a', 'h-b']);
	const workflowId = `wf-h-${Math.random()}`;
	const batch = (group: string) =>
		watcher(emu, {
			partner: true,
			staticData: 'lost',
			version: 5,
			workflowId,
			...windowed({ sweepGroup: group }),
		});
	const [one, two] = [batch('1'), batch('2')];
	setNow(t0);
	await Promise.all([one.sweep([{ customer: 'h-a' }]), two.sweep([{ customer: 'h-b' }])]);
	const runA = emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: t0 + MINUTE });
	const runB = emu.recordRun({ bundleId: b2, outcome: 'failed', dateCreated: t0 + MINUTE });
	setNow(t0 + 30 * MINUTE);
	const [a, b] = await Promise.all([
		one.sweep([{ customer: 'h-a' }]),
		two.sweep([{ customer: 'h-b' }]),
	]);
	expect(ids(a.json)).toEqual([runA.id]);
	expect(ids(b.json)).toEqual([runB.id]);
	const mixed = watcher(emu, {
		partner: true,
		staticData: 'lost',
		version: 5,
		...windowed({ sweepGroup: '={{ $json.customer }}' }),
	});
	const refused = await mixed.sweep([{ customer: 'h-a' }, { customer: 'h-b' }]);
	expect(refused.calls).toEqual([]);
	expect(refused.json).toEqual([]);
	expect(refused.errors.map((item) => item.error)).toEqual([
		'Options → Sweep Group differs between item 0 and item 1',
		'Options → Sweep Group differs between item 0 and item 1',
	]);
});

it('a year in weekly jumps (each a catch-up over a week of runs): every run once, and the store no bigger in week 6 than in week 2', async () => {
	const emu = ctx.emu;
	const t0 = startAt();
	const [[b1, b2]] = await fleet(['y-a']);
	const w = watcher(emu, {
		partner: true,
		staticData: 'lost',
		version: 5,
		...windowed({}, { groupIntoIncidents: true }),
	});
	setNow(t0);
	await w.sweep([{ customer: 'y-a' }]);
	const sizes: number[] = [];
	const events: string[] = [];
	const WEEK = 7 * 24 * 60 * MINUTE;
	for (let week = 1; week <= 6; week++) {
		const start = t0 + (week - 1) * WEEK;
		for (let day = 0; day < 7; day++) {
			const at = start + day * 24 * 60 * MINUTE + 60 * MINUTE;
			emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at });
			emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at + 30 * MINUTE });
			emu.recordRun({ bundleId: b2, outcome: 'succeeded', dateCreated: at });
		}
		setNow(t0 + week * WEEK);
		const answer = await w.sweep([{ customer: 'y-a' }]);
		expect(answer.errors).toEqual([]);
		events.push(...answer.json.map((item) => String(item.event)));
		sizes.push(listSize(w));
	}
	expect(events.filter((event) => event === 'incidentOpened')).toHaveLength(42);
	expect(events.filter((event) => event === 'incidentResolved')).toHaveLength(42);
	expect(sizes[5]).toBeLessThanOrEqual(Math.ceil(sizes[1] * 1.1));
	expect(sizes[5]).toBeLessThanOrEqual(2 * LOOKBACK_TICKS + 20);
});
