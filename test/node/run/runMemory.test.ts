/** Run → Get New's memory rules, pure (nodes/AlbatoSolutions/actions/run/runMemory.ts). */
import type { IDataObject } from 'n8n-workflow';

import {
	boundMemory,
	type EndUserMemory,
	enoughRead,
	isKnown,
	memoryOf,
	newerFirst,
	sweepEndUser,
} from '../../../nodes/AlbatoSolutions/actions/run/runMemory';

const limits = { perEndUser: 5, total: 100 };
const date = (minute: number) => `2026-01-01 10:${String(minute).padStart(2, '0')}:00`;
const run = (id: number, minute: number, status = 1): IDataObject => ({
	id,
	status,
	dateCreated: date(minute),
});
const ms = (minute: number) => Date.parse(`${date(minute).replace(' ', 'T')}Z`);

describe('runMemory', () => {
	it('orders newer first by date, then by id; unreadable dates last', () => {
		const marks: Array<[string, number]> = [
			['1', ms(1)],
			['3', Number.NaN],
			['2', ms(1)],
			['4', ms(2)],
		];
		expect(marks.sort(newerFirst).map(([id]) => id)).toEqual(['4', '2', '1', '3']);
	});

	it('a first sweep returns the newest ended runs, oldest first; one in progress waits', () => {
		const runs = [run(7, 7, 0), run(6, 6), run(5, 5, 2), run(4, 4)];
		const { fresh, next } = sweepEndUser(undefined, runs, { offset: 0, limits }, 1, true);
		expect(fresh.map((r) => r.id)).toEqual([4, 5, 6]);
		expect(next.pending).toEqual([['7', ms(7)]]);
		const again = sweepEndUser(
			next,
			[run(7, 7, 1), ...runs.slice(1)],
			{ offset: 0, limits },
			2,
			true,
		);
		expect(again.fresh.map((r) => r.id)).toEqual([7]);
		expect(again.next.pending).toEqual([]);
	});

	it('keeps the newest per customer; the newest dropped is the floor, and what is at or before it is old', () => {
		const runs = Array.from({ length: 8 }, (_, i) => run(i + 1, i + 1));
		const { fresh, next } = sweepEndUser(undefined, runs, { offset: 0, limits }, 1, true);
		expect(fresh.map((r) => r.id)).toEqual([4, 5, 6, 7, 8]);
		expect(next.floor).toEqual(['3', ms(3)]);
		expect(isKnown(next, ['2', ms(2)])).toBe(true);
		expect(isKnown(next, ['99', ms(3)])).toBe(false); // same second, newer id
		expect(isKnown(next, ['99', Number.NaN])).toBe(false); // an unreadable date is never old
	});

	it('a remembered run in progress no longer listed is forgotten only after a whole read', () => {
		const memory: EndUserMemory = { ended: [], pending: [['9', ms(9)]], sweptAt: 0 };
		expect(sweepEndUser(memory, [], { offset: 0, limits }, 1, false).next.pending).toEqual([
			['9', ms(9)],
		]);
		expect(sweepEndUser(memory, [], { offset: 0, limits }, 1, true).next.pending).toEqual([]);
	});

	describe('enoughRead', () => {
		const memory: EndUserMemory = {
			ended: [
				['5', ms(5)],
				['4', ms(4)],
			],
			pending: [],
			sweptAt: 0,
		};
		it('stops at a page of known ended runs, newest first', () => {
			const page = [run(5, 5), run(4, 4)];
			expect(enoughRead(memory, [run(6, 6), ...page], page, { offset: 0, limits })).toBe(true);
		});
		it('not when the runs read are out of date order, or a date is unreadable', () => {
			const page = [run(5, 5), run(4, 4)];
			expect(enoughRead(memory, [run(6, 3), ...page], page, { offset: 0, limits })).toBe(false);
			expect(enoughRead(memory, [{ id: 6, status: 1 }, ...page], page, { offset: 0, limits })).toBe(
				false,
			);
		});
		it('not when the page holds a new or a running run, nor before a remembered running run is passed', () => {
			expect(enoughRead(memory, [run(6, 6)], [run(6, 6)], { offset: 0, limits })).toBe(false);
			expect(enoughRead(memory, [run(5, 5, 0)], [run(5, 5, 0)], { offset: 0, limits })).toBe(false);
			const waiting = { ...memory, pending: [['3', ms(3)]] as Array<[string, number]> };
			const page = [run(5, 5), run(4, 4)];
			expect(enoughRead(waiting, page, page, { offset: 0, limits })).toBe(false);
			const past = [run(5, 5), run(4, 4), run(2, 2)];
			expect(
				enoughRead(waiting, past, [run(2, 2)], {
					offset: 0,
					limits: { ...limits, perEndUser: 50 },
				}),
			).toBe(false);
			const met = [run(5, 5), run(4, 4), run(3, 3, 0)];
			expect(
				enoughRead(
					{ ...waiting, ended: [...memory.ended, ['2', ms(2)]] },
					[...met, run(2, 2)],
					[run(2, 2)],
					{ offset: 0, limits },
				),
			).toBe(true);
		});
		it('once the memory is full of runs read newest first, whatever they are', () => {
			const runs = Array.from({ length: 5 }, (_, i) => run(20 - i, 20 - i));
			expect(enoughRead(undefined, runs, runs, { offset: 0, limits })).toBe(true);
		});
	});

	it('the total bound gives each customer an equal share, raising floors', () => {
		const memory = memoryOf(undefined);
		for (const key of ['a', 'b']) {
			memory.customers[key] = sweepEndUser(
				undefined,
				Array.from({ length: 40 }, (_, i) => run(i + 1, i % 60)),
				{ offset: 0, limits: { perEndUser: 100, total: 100 } },
				1,
				true,
			).next;
		}
		boundMemory(memory, { perEndUser: 100, total: 50 });
		expect(Object.values(memory.customers).map((c) => c.ended.length)).toEqual([25, 25]);
		expect(memory.customers.a.floor).toBeDefined();
	});

	it('reads stored memory of another shape as empty', () => {
		expect(memoryOf({ version: 0 })).toEqual({ version: 1, customers: {} });
		expect(memoryOf('x')).toEqual({ version: 1, customers: {} });
	});
});
