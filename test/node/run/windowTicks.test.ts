/**
 * Run → Get New's sweep windows, the pure part (window/ticks.ts): tick arithmetic, the lease, the
 * store keys and how taken-over ticks fall into spans and windows. No n8n-core: a unit test.
 */
import {
	endTickAt,
	groupKeys,
	LEASE_MS,
	leaseOver,
	lookback,
	LOOKBACK_TICKS,
	spansOf,
	TICK_MS,
	tickOf,
	tickStart,
	windowsOf,
} from '../../../nodes/AlbatoSolutions/actions/run/window/ticks';

const MINUTE = 60_000;

it('a tick is 5 minutes; the lookback is 8 days of ticks, oldest first, ending before the end tick', () => {
	expect(TICK_MS).toBe(5 * MINUTE);
	expect(LOOKBACK_TICKS).toBe(8 * 24 * 12);
	expect(tickOf(0)).toBe(0);
	expect(tickOf(TICK_MS - 1)).toBe(0);
	expect(tickOf(TICK_MS)).toBe(1);
	expect(tickStart(3)).toBe(3 * TICK_MS);
	const ticks = lookback(5000);
	expect(ticks).toHaveLength(LOOKBACK_TICKS);
	expect(ticks[0]).toBe(5000 - LOOKBACK_TICKS);
	expect(ticks[ticks.length - 1]).toBe(4999);
});

it('the end tick waits for the lateness: a run ending in a tick is swept once the lateness has passed after it', () => {
	const now = 100 * TICK_MS;
	expect(endTickAt(now, 0)).toBe(100);
	expect(endTickAt(now, 1)).toBe(99);
	expect(endTickAt(now, 10 * MINUTE)).toBe(98);
	expect(endTickAt(now + 1, 10 * MINUTE)).toBe(98);
});

it('a lease is over once the tick, its lateness and the lease have passed, not a millisecond before', () => {
	const lateness = 10 * MINUTE;
	const over = tickStart(8) + lateness + LEASE_MS;
	expect(leaseOver(7, over, lateness)).toBe(true);
	expect(leaseOver(7, over - 1, lateness)).toBe(false);
	expect(leaseOver(7, over + 1, lateness)).toBe(true);
	expect(leaseOver(8, over, lateness)).toBe(false);
});

it("each group's keys are its own, one per kind, tick and end user", () => {
	const keys = groupKeys('batch 1');
	expect(keys.taken(7)).toBe('w\nbatch 1\nt\n7');
	expect(keys.done(7)).toBe('w\nbatch 1\nd\n7');
	expect(keys.begins(7)).toBe('w\nbatch 1\nb\n7');
	expect(keys.served(7, 'c1')).toBe('w\nbatch 1\ns\n7\nc1');
	expect(keys.known).toBe('w\nbatch 1\nknown');
	expect(groupKeys('').known).toBe('w\n\nknown');
});

it('spans: consecutive ticks, oldest first, duplicates once, in any order given', () => {
	expect(spansOf([])).toEqual([]);
	expect(spansOf([5])).toEqual([[5, 6]]);
	expect(spansOf([12, 3, 4, 10, 11, 4, 5, 20])).toEqual([
		[3, 6],
		[10, 13],
		[20, 21],
	]);
	// Numeric order, not the text order of the default sort.
	expect(spansOf([100, 99, 9, 10])).toEqual([
		[9, 11],
		[99, 101],
	]);
});

it('windows: each span split where a window begins, each part named by its first tick', () => {
	expect(windowsOf([], new Set())).toEqual([]);
	expect(windowsOf([3, 4, 5, 8, 9], new Set())).toEqual([
		{ first: 3, ticks: [3, 4, 5] },
		{ first: 8, ticks: [8, 9] },
	]);
	expect(windowsOf([3, 4, 5, 6, 8, 9], new Set([5, 9, 42]))).toEqual([
		{ first: 3, ticks: [3, 4] },
		{ first: 5, ticks: [5, 6] },
		{ first: 8, ticks: [8] },
		{ first: 9, ticks: [9] },
	]);
});
