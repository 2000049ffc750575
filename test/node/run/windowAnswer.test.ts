/**
 * Run → Get New from node version 5 answers each end user as soon as it is read, over every tick
 * its execution may return, and keeps only those items until it settles (windowAnswer.ts). This
 * holds that to what answering over the settled ticks alone gives, for each settle (claims.ts keeps
 * whole spans: the execution's own ticks, a window it took over, both, neither), with the window
 * taken over apart from its own ticks or just before them. Runs end across tick bounds, fail in
 * streaks, and incidents remind. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Job } from '../../../nodes/AlbatoSolutions/actions/run/newRunsJob';
import { spansOf, TICK_MS } from '../../../nodes/AlbatoSolutions/actions/run/window/ticks';
import {
	itemsIn,
	windowItems,
} from '../../../nodes/AlbatoSolutions/actions/run/window/windowAnswer';
import type { WindowRead } from '../../../nodes/AlbatoSolutions/actions/run/window/windowRead';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 5, 1, 0, 0);
const TICK0 = T0 / TICK_MS;
const naive = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** A small pseudo-random source, so that each case is the same on every run. */
function random(seed: number) {
	let x = seed;
	return () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** Runs of two automations every 3-9 minutes over `hours`, some failing in streaks, some long. */
function runs(seed: number, hours: number): IDataObject[] {
	const next = random(seed);
	const out: IDataObject[] = [];
	for (const bundleId of [11, 12]) {
		let failing = 0;
		for (let start = T0 + next() * 5 * MINUTE; start < T0 + hours * 60 * MINUTE; ) {
			if (failing === 0 && next() < 0.15) failing = 1 + Math.floor(next() * 4);
			const failed = failing > 0;
			if (failing > 0) failing--;
			const end = start + (next() < 0.1 ? 5 + next() * 20 : next()) * MINUTE;
			out.push({
				id: out.length + 1,
				bundleId,
				status: failed ? 2 : 1,
				dateCreated: naive(start),
				steps: [{ id: 9000 + out.length, status: failed ? 2 : 1, dateCreated: naive(end) }],
			});
			start += (3 + next() * 6) * MINUTE;
		}
	}
	return out;
}

const job = (incidents: boolean): Job =>
	({
		itemIndex: 0,
		key: 'c',
		endUserId: 'c',
		scope: 'endUser',
		status: 'any',
		offset: 0,
		limits: { perEndUser: 200, total: 100_000 },
		...(incidents ? { incidents: { remindAfterMs: 40 * MINUTE } } : {}),
		windowed: { group: '', latenessMs: 60 * MINUTE },
	}) as unknown as Job;

const ticks = (from: number, to: number) =>
	Array.from({ length: to - from }, (_, n) => TICK0 + from + n);

/** The execution's own ticks, and a window it took over apart from them or just before them. */
const own = ticks(40, 70);
const layouts = [
	['apart', ticks(10, 25)],
	['adjacent', ticks(25, 40)],
] as const;

/** Each settle's ticks, each answered as a sweep of its spans would (taken over, then own). */
function settles(takenOver: readonly number[]) {
	const spans = (set: readonly number[]) => (set.length ? spansOf(set) : []);
	return [[...takenOver, ...own], [...own], [...takenOver], []].map((kept) => ({
		allowed: new Set(kept),
		spans: [
			...spans(takenOver.filter((tick) => kept.includes(tick))),
			...spans(own.filter((tick) => kept.includes(tick))),
		],
	}));
}

describe('Run → Get New (version 5): an end user answered once, before the settle', () => {
	for (const incidents of [false, true])
		for (const [layout, takenOver] of layouts)
			for (const seed of [1, 2, 3, 4])
				it(`gives what the settled ticks alone give (${incidents ? 'incidents' : 'runs'}, window taken over ${layout}, seed ${seed})`, () => {
					const read: WindowRead = { job: job(incidents), runs: runs(seed, 8), names: new Map() };
					const [all, ...narrower] = settles(takenOver);
					const early = windowItems(read, { ...all, first: false, end: TICK0 + 70 });
					let checked = 0;
					for (const settled of [all, ...narrower]) {
						const late = windowItems(read, { ...settled, first: false, end: TICK0 + 70 });
						expect(itemsIn(early, settled.allowed)).toEqual(itemsIn(late, settled.allowed));
						checked += itemsIn(late, settled.allowed).length;
					}
					// The cases say something: the streams open and resolve incidents, or return runs.
					expect(checked).toBeGreaterThan(incidents ? 2 : 100);
					if (incidents)
						expect(early.map(({ item }) => item.event)).toEqual(
							expect.arrayContaining(['incidentOpened', 'incidentResolved']),
						);
				});

	it('holds no item outside the ticks it may return, and a first sweep’s state only if it returns any', () => {
		const read: WindowRead = { job: job(true), runs: runs(5, 8), names: new Map() };
		const [all] = settles(layouts[0][1]);
		const early = windowItems(read, { ...all, first: false, end: TICK0 + 70 });
		for (const { tick } of early) expect(all.allowed.has(tick!)).toBe(true);
		const plain: WindowRead = { ...read, job: job(false) };
		const first = windowItems(plain, { allowed: new Set(own), first: true, end: TICK0 + 70 });
		expect(first.length).toBeGreaterThan(0);
		expect(itemsIn(first, new Set())).toEqual([]);
		expect(itemsIn(first, new Set([own[0]]))).toHaveLength(first.length);
	});
});
