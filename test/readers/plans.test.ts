/**
 * The billing readers, pure: counts as the service may send them, plans in any listed
 * shape, a plan by id, and the share used, undefined wherever it cannot be told honestly.
 */
import { countOf, planById, plansOf, usedShareOf } from '../../nodes/shared/readers/plans';

describe('countOf', () => {
	it.each([
		[50, 50],
		['50', 50],
		[' 1000 ', 1000],
		['-3', -3],
		['12.5', 12.5],
		['12.25', 12.25],
		[Number.NaN, undefined],
		[Number.POSITIVE_INFINITY, undefined],
		['', undefined],
		['50 left', undefined],
		['x50', undefined],
		['1.', undefined],
		['.5', undefined],
		['1e3', undefined],
		[null, undefined],
		[undefined, undefined],
		[true, undefined],
	])('%j → %j', (value, expected) => expect(countOf(value)).toBe(expected));
});

describe('plansOf and planById', () => {
	const listed = [
		{ id: 1, monthlyTrx: 1000 },
		{ id: '23', monthlyTrx: '10000' },
		{ id: 24 },
		{ monthlyTrx: 5 },
	];

	it('a list: every plan with an id, its monthlyTrx as a number or undefined', () => {
		expect(plansOf(listed)).toEqual([
			{ id: 1, monthlyTrx: 1000 },
			{ id: 23, monthlyTrx: 10000 },
			{ id: 24, monthlyTrx: undefined },
		]);
	});

	it('a wrapped list and a map keyed by id read the same', () => {
		expect(plansOf({ data: listed })).toEqual(plansOf(listed));
		expect(plansOf({ 1: { id: 1, monthlyTrx: 1000 } })).toEqual([{ id: 1, monthlyTrx: 1000 }]);
	});

	it('5 and "5" are the same plan; no id or an unknown one finds none', () => {
		const plans = plansOf(listed);
		expect(planById(plans, '1')?.monthlyTrx).toBe(1000);
		expect(planById(plans, 23)?.monthlyTrx).toBe(10000);
		expect(planById(plans, 2)).toBeUndefined();
		expect(planById(plans, undefined)).toBeUndefined();
		expect(planById(plans, '')).toBeUndefined();
	});
});

describe('usedShareOf', () => {
	it.each([
		['all left', 1000, 1000, 0],
		['50 of 1000 left', 50, 1000, 0.95],
		['as a string', '50', 1000, 0.95],
		['none left', 0, 1000, 1],
		['rounded to 4 places', 1, 3, 0.6667],
		['more left than the plan (extra transactions)', 1001, 1000, undefined],
		['a negative count', -1, 1000, undefined],
		['a plan of 0', 0, 0, undefined],
		['a negative plan', 0, -5, undefined],
		['no plan size', 50, undefined, undefined],
		['no count', undefined, 1000, undefined],
	])('%s', (_name, left, monthly, expected) => expect(usedShareOf(left, monthly)).toBe(expected));
});
