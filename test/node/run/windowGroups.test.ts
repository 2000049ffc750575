/**
 * Run → Get New's sweep windows (window/claims.ts) for a fleet in batches: eight sweep groups of
 * one node, on two workers, whose calls to n8n's deduplication store meet (the harness store
 * between its read and its write; one row per node, as n8n keeps it). Over four simulated weeks,
 * each a week's catch-up and two steady sweeps, every tick of every group is returned once: none
 * twice, none left out. On the gate before rounds were checked apart (gate.ts, gateHeld.ts), a
 * group's write that held was dropped because another of its writes was overwritten: a week's
 * window was taken and never returned, then swept again after the lease.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { MemoryDeduplicator } from '../../../harness';
import { TICK_MS } from '../../../nodes/AlbatoSolutions/actions/run/window/ticks';

type Claims = typeof import('../../../nodes/AlbatoSolutions/actions/run/window/claims');
/** Two workers: each its own module state (the gate's per-process queue and carried keys). */
const workers: Claims[] = [];
for (let n = 0; n < 2; n++)
	jest.isolateModules(() => {
		workers.push(jest.requireActual('../../../nodes/AlbatoSolutions/actions/run/window/claims'));
	});

const workflow = { id: 'wf-groups' };
const node = { id: 'node-groups', name: 'Watch' };
const MINUTE = 60_000;
const WEEK = 7 * 1440 * MINUTE;
const LATENESS = 60 * MINUTE;
const t0 = Math.floor(Date.UTC(2027, 5, 1) / TICK_MS) * TICK_MS;

function execution(store: MemoryDeduplicator, id: string) {
	const contextData = { workflow, node } as never;
	return {
		getWorkflow: () => workflow,
		getNode: () => node,
		getExecutionId: () => id,
		logger: { warn: () => undefined },
		helpers: {
			checkProcessedAndRecord: async (items: string[], scope: 'node', options: never) =>
				await store.checkProcessedAndRecord(items, scope, contextData, options),
			removeProcessed: async (items: string[], scope: 'node') =>
				await store.removeProcessed(items, scope, contextData),
		},
	} as unknown as IExecuteFunctions;
}

/** A pseudo-random source, the same on every run. */
function random(seed: number) {
	let x = seed;
	return () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

it('eight groups on two workers whose store calls meet: each tick returned once, for four weeks', async () => {
	const store = new MemoryDeduplicator();
	const next = random(7);
	const wait = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
	store.betweenReadAndWrite = async () => await wait(next() * 30);
	// The workers' clock moves with the simulated time (the gate times its carried keys by it).
	const realNow = Date.now.bind(Date);
	let shift = 0;
	const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
	const returned = new Map<string, number>();
	const firsts = new Map<string, number>();
	const sweep = async (group: number, now: number) => {
		const { claimWindow, settleWindow } = workers[group % 2];
		const ctx = execution(store, `${group}-${now}`);
		const claim = await claimWindow(ctx, { group: String(group), now, latenessMs: LATENESS });
		await wait(next() * 50); // the customers' reads
		const settled = await settleWindow(ctx, claim, { served: ['c'], failed: false });
		if (claim.first) firsts.set(String(group), (firsts.get(String(group)) ?? 0) + 1);
		else
			for (const tick of settled.allowed('c'))
				returned.set(`${group} ${tick}`, (returned.get(`${group} ${tick}`) ?? 0) + 1);
	};
	const groups = [1, 2, 3, 4, 5, 6, 7, 8];
	try {
		for (let week = 0; week <= 4; week++)
			for (const at of [0, 15, 30].map((minutes) => t0 + week * WEEK + minutes * MINUTE)) {
				shift = at - realNow();
				await Promise.all(groups.map(async (group) => await sweep(group, at)));
			}
	} finally {
		clock.mockRestore();
	}
	expect(store.overlaps).toBeGreaterThan(100); // the calls did meet
	const [from, to] = [t0 - LATENESS, t0 + 4 * WEEK + 30 * MINUTE - LATENESS].map(
		(ms) => ms / TICK_MS,
	);
	for (const group of groups) {
		expect(firsts.get(String(group))).toBe(1);
		const counts = Array.from(
			{ length: to - from },
			(_, n) => returned.get(`${group} ${from + n}`) ?? 0,
		);
		expect({
			group,
			twice: counts.filter((n) => n > 1).length,
			missed: counts.filter((n) => n === 0).length,
		}).toEqual({ group, twice: 0, missed: 0 });
	}
}, 300_000);
