/**
 * One reading of "a count or a percentage" for Stop After Failures (zero allowed) and Running Low
 * Below (zero refused). Their errors, worded by each caller, are tested with them.
 */
import {
	countOrPercentOf,
	describeCountOrPercent,
} from '../../nodes/shared/readers/countOrPercent';

describe('countOrPercentOf', () => {
	it.each([
		['3', { count: 3 }],
		[' 7 ', { count: 7 }],
		[500, { count: 500 }],
		['2%', { percent: 2 }],
		['2.5 %', { percent: 2.5 }],
		['2.55%', { percent: 2.55 }],
		[' 100% ', { percent: 100 }],
	])('%j reads as %j, with or without zero', (value, expected) => {
		expect(countOrPercentOf(value, { zero: true })).toEqual(expected);
		expect(countOrPercentOf(value, { zero: false })).toEqual(expected);
	});

	it.each([['0'], [0], ['0%'], ['0.0%']])('%j is a limit only where zero is', (value) => {
		expect(countOrPercentOf(value, { zero: true })).toEqual(
			String(value).endsWith('%') ? { percent: 0 } : { count: 0 },
		);
		expect(countOrPercentOf(value, { zero: false })).toBeUndefined();
	});

	it.each([
		['-1'],
		[-1],
		['1.5'],
		[1.5],
		['100.5%'],
		['101%'],
		['-5%'],
		['x10%'],
		['10%x'],
		['10 %%'],
		['ten'],
		[''],
		[' '],
		[null],
		[undefined],
		[Number.NaN],
		[Number.POSITIVE_INFINITY],
		[{ count: 3 }],
		[true],
	])('%j is neither', (value) => {
		expect(countOrPercentOf(value, { zero: true })).toBeUndefined();
		expect(countOrPercentOf(value, { zero: false })).toBeUndefined();
	});

	it('describes a limit as a user writes it', () => {
		expect(describeCountOrPercent({ count: 3 })).toBe('3');
		expect(describeCountOrPercent({ percent: 2.5 })).toBe('2.5%');
	});
});
