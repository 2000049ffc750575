/**
 * Transactions Running Low's limit, pure: Running Low Below as written (a number of transactions
 * left or a share of the plan), and whether a count of transactions left is below it. The poll
 * itself runs in n8n-core in transactionsRunningLow.test.ts.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { isLow, readLowLimit } from '../../nodes/AlbatoSolutionsTrigger/usagePoll';

/** Only what readLowLimit reads of a poll's context: the parameter and the node. */
const withLimit = (value: unknown) =>
	({
		getNodeParameter: () => value,
		getNode: () => ({ name: 'Albato Solutions Trigger' }),
	}) as unknown as IPollFunctions;

describe('Running Low Below', () => {
	it.each([
		['10%', { percent: 10 }],
		['2.5%', { percent: 2.5 }],
		['1.25 %', { percent: 1.25 }],
		[' 100% ', { percent: 100 }],
		['500', { count: 500 }],
		[' 7 ', { count: 7 }],
		[500, { count: 500 }],
	])('%j reads as %j', (value, expected) =>
		expect(readLowLimit(withLimit(value))).toEqual(expected),
	);

	it.each([
		['0'],
		['0%'],
		['100.5%'],
		['150%'],
		['-5'],
		['x10%'],
		['10%x'],
		['500x'],
		['x500'],
		['ten'],
		[''],
		[2.5],
		[0],
		[null],
	])('%j is refused, naming the parameter and what it takes', (value) => {
		let error: unknown;
		try {
			readLowLimit(withLimit(value));
		} catch (caught) {
			error = caught;
		}
		expect(error).toMatchObject({
			message: expect.stringMatching(
				/^Running Low Below must be a whole number of transactions \(e\.g\. 500\) or a percentage above 0 and up to 100 \(e\.g\. 10%\), got /,
			),
			description: 'Set Running Low Below under the Events',
		});
	});
});

describe('isLow', () => {
	it('a count: below it, not at it', () => {
		expect(isLow(99, undefined, { count: 100 })).toBe(true);
		expect(isLow(100, undefined, { count: 100 })).toBe(false);
		expect(isLow(-1, 1000, { count: 1 })).toBe(true);
	});

	it("a share of the plan's monthly transactions: below it, not at it; more than the plan is not low", () => {
		expect(isLow(99, 1000, { percent: 10 })).toBe(true);
		expect(isLow(100, 1000, { percent: 10 })).toBe(false);
		expect(isLow(1500, 1000, { percent: 10 })).toBe(false);
		expect(isLow(0, 1000, { percent: 0.5 })).toBe(true);
	});

	it('cannot be told: no count, or a share without a plan size (none, 0 or negative)', () => {
		expect(isLow(undefined, 1000, { count: 100 })).toBeUndefined();
		expect(isLow(undefined, 1000, { percent: 10 })).toBeUndefined();
		expect(isLow(0, undefined, { percent: 10 })).toBeUndefined();
		expect(isLow(0, 0, { percent: 10 })).toBeUndefined();
		expect(isLow(0, -100, { percent: 10 })).toBeUndefined();
	});
});
