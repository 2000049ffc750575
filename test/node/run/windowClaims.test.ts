/**
 * Run → Get New's window claims (window/claims.ts) against n8n's deduplication store as the harness
 * keeps it: an execution that stalls between taking its window and settling it (a frozen worker)
 * while a later one takes the window over. Whichever settles first returns it; the other returns
 * none of it. A unit of claims.ts: the stall is between two of its calls.
 */
import { createHash } from 'crypto';

import { MemoryDeduplicator } from '../../../harness';
import {
	claimWindow,
	settleWindow,
} from '../../../nodes/AlbatoSolutions/actions/run/window/claims';
import {
	endTickAt,
	groupKeys,
	LEFTOVER_BAND,
	LEFTOVER_SLICES,
	LOOKBACK_TICKS,
	TICK_MS,
} from '../../../nodes/AlbatoSolutions/actions/run/window/ticks';
import { storeExecution } from '../../support/storeExecution';

// Each test its own workflow: gate.ts carries a worker's recent keys per workflow and node.
let workflow = { id: 'wf-claims' };
beforeEach(() => (workflow = { id: `wf-claims-${Math.random()}` }));
const node = { id: 'node-claims', name: 'Watch' };
const MINUTE = 60_000;
const LATENESS = 10 * MINUTE;

const execution = (store: MemoryDeduplicator, id: string) =>
	storeExecution(store, { workflow, node }, id);

const t0 = Math.floor(Date.UTC(2027, 5, 1) / TICK_MS) * TICK_MS;

async function firstSweep(store: MemoryDeduplicator) {
	const ctx = execution(store, 'first');
	const claim = await claimWindow(ctx, { group: '', now: t0, latenessMs: LATENESS });
	expect(claim.first).toBe(true);
	await settleWindow(ctx, claim, { served: ['c1', 'c2'], failed: false });
}

describe.each([
	['the late execution settles first', true],
	['the taker settles first', false],
])('a frozen execution and its taker: %s', (_, lateFirst) => {
	it('each tick is returned by one of them, for each customer', async () => {
		const store = new MemoryDeduplicator();
		await firstSweep(store);
		const late = execution(store, 'late');
		const lateClaim = await claimWindow(late, {
			group: '',
			now: t0 + 30 * MINUTE,
			latenessMs: LATENESS,
		});
		expect(lateClaim.own.length).toBeGreaterThan(0);
		// Frozen well past the lease; the next sweep takes its window over.
		const taker = execution(store, 'taker');
		const takerClaim = await claimWindow(taker, {
			group: '',
			now: t0 + 120 * MINUTE,
			latenessMs: LATENESS,
		});
		expect(takerClaim.pending).toEqual(lateClaim.own);
		const settle = async (which: 'late' | 'taker') =>
			which === 'late'
				? await settleWindow(late, lateClaim, { served: ['c1', 'c2'], failed: false })
				: await settleWindow(taker, takerClaim, { served: ['c1', 'c2'], failed: false });
		const order: Array<'late' | 'taker'> = lateFirst ? ['late', 'taker'] : ['taker', 'late'];
		const settled = { late: await settle(order[0]), taker: await settle(order[1]) } as Record<
			string,
			Awaited<ReturnType<typeof settleWindow>>
		>;
		if (order[0] === 'taker') {
			const swap = settled.late;
			settled.late = settled.taker;
			settled.taker = swap;
		}
		for (const customer of ['c1', 'c2']) {
			const byLate = settled.late.allowed(customer);
			const byTaker = settled.taker.allowed(customer);
			for (const tick of lateClaim.own)
				expect([byLate.has(tick), byTaker.has(tick)]).toEqual(
					lateFirst ? [true, false] : [false, true],
				);
			// The taker's own window is its alone.
			for (const tick of takerClaim.own) expect(byTaker.has(tick)).toBe(true);
		}
	});
});

it('a window with a failed customer: its served customer is not served again, the failed one is, once', async () => {
	const store = new MemoryDeduplicator();
	await firstSweep(store);
	const partial = execution(store, 'partial');
	const claim = await claimWindow(partial, {
		group: '',
		now: t0 + 30 * MINUTE,
		latenessMs: LATENESS,
	});
	const mine = await settleWindow(partial, claim, { served: ['c1'], failed: true });
	expect([...mine.allowed('c1')]).toEqual(claim.own);
	expect(mine.allowed('c2').size).toBe(0);
	const takers = await Promise.all(
		['taker-1', 'taker-2'].map(async (id) => {
			const ctx = execution(store, id);
			const taken = await claimWindow(ctx, {
				group: '',
				now: t0 + 120 * MINUTE,
				latenessMs: LATENESS,
			});
			return {
				taken,
				settled: await settleWindow(ctx, taken, { served: ['c1', 'c2'], failed: false }),
			};
		}),
	);
	const servedC2 = takers.filter(({ settled }) =>
		claim.own.every((tick) => settled.allowed('c2').has(tick)),
	);
	expect(servedC2).toHaveLength(1);
	for (const { settled } of takers)
		for (const tick of claim.own) expect(settled.allowed('c1').has(tick)).toBe(false);
});

it('removes again, within a few sweeps, aged keys a removal left behind (put back by a call that read before it)', async () => {
	const store = new MemoryDeduplicator();
	await firstSweep(store);
	const keys = groupKeys('');
	const aged = (first: number) =>
		Array.from({ length: 10 }, (_, n) => first + n).flatMap((tick) => [
			keys.taken(tick),
			keys.done(tick),
		]);
	const start = Math.floor(t0 / TICK_MS) - LOOKBACK_TICKS - LEFTOVER_BAND + 100;
	const put = execution(store, 'write-back');
	expect(
		await put.helpers.checkProcessedAndRecord(aged(start), 'node', { mode: 'entries' } as never),
	).toEqual(expect.objectContaining({ new: aged(start) }));
	// Sweeps every 20 minutes (4 ticks each): LEFTOVER_SLICES ticks in all.
	for (let sweep = 1; sweep <= LEFTOVER_SLICES / 4; sweep++) {
		const ctx = execution(store, `steady-${sweep}`);
		const now = t0 + sweep * 4 * TICK_MS;
		const claim = await claimWindow(ctx, { group: '', now, latenessMs: LATENESS });
		await settleWindow(ctx, claim, { served: ['c1'], failed: false });
	}
	// Recorded again, every one is new: none was left.
	const again = await put.helpers.checkProcessedAndRecord(aged(start), 'node', {
		mode: 'entries',
	} as never);
	expect(again.new).toHaveLength(aged(start).length);
}, 120_000);

it.each([
	['a steady sweep', 20],
	["a catch-up after a week's outage", 7 * 24 * 60],
])(
	'aged keys %s removed, put back after its last removal, go with the slices of the sweeps after',
	async (_, minutes) => {
		const store = new MemoryDeduplicator();
		await firstSweep(store);
		const keys = groupKeys('');
		const sweepAt = async (id: string, now: number) => {
			const ctx = execution(store, id);
			const claim = await claimWindow(ctx, { group: '', now, latenessMs: LATENESS });
			await settleWindow(ctx, claim, { served: ['c1'], failed: false });
			return claim;
		};
		const start = t0 + minutes * MINUTE;
		const claim = await sweepAt('remover', start);
		const first = endTickAt(t0, LATENESS) - LOOKBACK_TICKS;
		const aged = Array.from({ length: claim.end - endTickAt(t0, LATENESS) }, (_, n) => first + n);
		const left = aged.flatMap((tick) => [keys.taken(tick), keys.done(tick)]);
		const put = execution(store, 'write-back');
		const mode = { mode: 'entries' } as never;
		// The late write: every key it puts back had been removed (each is new).
		expect((await put.helpers.checkProcessedAndRecord(left, 'node', mode)).new).toEqual(left);
		for (let sweep = 1; sweep <= LEFTOVER_SLICES / 4; sweep++)
			await sweepAt(`steady-${sweep}`, start + sweep * 4 * TICK_MS);
		expect((await put.helpers.checkProcessedAndRecord(left, 'node', mode)).new).toEqual(left);
	},
	120_000,
);

it.each([
	['hourly', 60, Math.ceil(LEFTOVER_SLICES / 12)],
	[
		'every LEFTOVER_SLICES ticks (one slice, were slices chosen by the end tick)',
		(LEFTOVER_SLICES * TICK_MS) / MINUTE,
		1,
	],
	["once, after a week's outage", 7 * 24 * 60, 1],
])(
	'removes again the aged keys left behind, on any schedule: sweeps %s',
	async (_, minutes, sweeps) => {
		const store = new MemoryDeduplicator();
		await firstSweep(store);
		const keys = groupKeys('');
		const below = endTickAt(t0, LATENESS) - LOOKBACK_TICKS;
		const ticks = Array.from({ length: LEFTOVER_SLICES }, (_, n) => below - 200 + n);
		const left = ticks.flatMap((tick) => [keys.taken(tick), keys.done(tick)]);
		const put = execution(store, 'write-back');
		const mode = { mode: 'entries' } as never;
		expect((await put.helpers.checkProcessedAndRecord(left, 'node', mode)).new).toEqual(left);
		for (let sweep = 1; sweep <= sweeps; sweep++) {
			const ctx = execution(store, `sweep-${sweep}`);
			const now = t0 + sweep * minutes * MINUTE;
			const claim = await claimWindow(ctx, { group: '', now, latenessMs: LATENESS });
			await settleWindow(ctx, claim, { served: ['c1'], failed: false });
		}
		// Recorded again, every one is new: none was left.
		expect((await put.helpers.checkProcessedAndRecord(left, 'node', mode)).new).toEqual(left);
	},
	120_000,
);

it("the store holds the group's ticks of the lookback only: each taken and returned, the window starts and `known`; nothing older, no marker", async () => {
	const store = new MemoryDeduplicator();
	const keys = groupKeys('');
	const hash = (key: string) => createHash('md5').update(key).digest('base64');
	const starts: number[] = [];
	// A first sweep, two every half hour, one after 3 hours, one after a week.
	for (const [n, at] of [0, 30, 60, 240, 240 + 7 * 24 * 60].entries()) {
		const ctx = execution(store, `sweep-${n}`);
		const now = t0 + at * MINUTE;
		const claim = await claimWindow(ctx, { group: '', now, latenessMs: LATENESS });
		expect(claim.pending).toEqual([]);
		starts.push(claim.own[0]);
		await settleWindow(ctx, claim, { served: ['c1'], failed: false });
		const end = endTickAt(now, LATENESS);
		expect(claim.end).toBe(end);
		const ticks = Array.from({ length: LOOKBACK_TICKS }, (_, i) => end - LOOKBACK_TICKS + i);
		const expected = [
			keys.known,
			...ticks.flatMap((tick) => [keys.taken(tick), keys.done(tick)]),
			...starts.filter((tick) => tick >= end - LOOKBACK_TICKS).map(keys.begins),
		];
		const held = [...store.rows.values()].flatMap((row) => row.data);
		expect(new Set(held)).toEqual(new Set(expected.map(hash)));
		expect(held).toHaveLength(expected.length);
	}
});

it('windows never returned are taken over whole: not while the window after them may still be swept', async () => {
	const store = new MemoryDeduplicator();
	await firstSweep(store);
	const claimAt = async (id: string, minutes: number) =>
		await claimWindow(execution(store, id), {
			group: '',
			now: t0 + minutes * MINUTE,
			latenessMs: LATENESS,
		});
	// Two executions take a window each and die.
	const a = await claimAt('a', 30);
	const b = await claimAt('b', 90);
	// B's first ticks are over the lease, its last one not yet: A's and B's ticks form one span
	// whose next tick (B's last) may still be returned, so none of it is taken over.
	const c = await claimAt('c', 115);
	expect(c.pending).toEqual([]);
	await settleWindow(execution(store, 'c'), c, { served: ['c1'], failed: false });
	// Once B's last tick is over the lease too, and the tick after it returned (C's): all of it.
	const d = await claimAt('d', 125);
	expect(d.pending).toEqual([...a.own, ...b.own]);
	const settled = await settleWindow(execution(store, 'd'), d, { served: ['c1'], failed: false });
	expect([...settled.allowed('c1')].sort((x, y) => x - y)).toEqual([...a.own, ...b.own, ...d.own]);
});

it('windows never returned, followed by the taker’s own window, are taken over whole', async () => {
	const store = new MemoryDeduplicator();
	await firstSweep(store);
	const claimAt = async (id: string, minutes: number) =>
		await claimWindow(execution(store, id), {
			group: '',
			now: t0 + minutes * MINUTE,
			latenessMs: LATENESS,
		});
	const a = await claimAt('a', 30);
	const b = await claimAt('b', 90);
	const d = await claimAt('d', 125);
	expect(d.own[0]).toBe(b.own[b.own.length - 1] + 1);
	expect(d.pending).toEqual([...a.own, ...b.own]);
});
