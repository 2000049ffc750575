/**
 * When a failed call is tried again: the backoff curve, Retry-After, and one call's retry budget.
 */
import {
	forTests,
	RETRYABLE_STATUS,
	retryAfter,
	RetryBudget,
} from '../../nodes/shared/transport/retry';

const { backoff } = forTests;

let random: jest.SpyInstance<number, []>;
beforeEach(() => {
	random = jest.spyOn(Math, 'random').mockReturnValue(1);
});
afterEach(() => jest.restoreAllMocks());

it('retries 429 and the gateway statuses 502–504, nothing else', () => {
	expect([...RETRYABLE_STATUS].sort()).toEqual([429, 502, 503, 504]);
});

describe('backoff: full jitter on 250 ms · 2^attempt, capped at 8 s', () => {
	it.each([
		[0, 250],
		[1, 500],
		[2, 1000],
		[5, 8000],
		[6, 8000],
	])('attempt %p waits at most %p ms', (attempt, ceiling) => {
		expect(backoff(attempt)).toBe(ceiling);
	});

	it('is a random share of the ceiling, rounded', () => {
		random.mockReturnValue(0.5);
		expect(backoff(0)).toBe(125);
		random.mockReturnValue(0.0019);
		expect(backoff(0)).toBe(0);
	});
});

describe('retryAfter', () => {
	it('reads seconds, never below zero', () => {
		expect(retryAfter('2')).toBe(2000);
		expect(retryAfter(3)).toBe(3000);
		expect(retryAfter('0')).toBe(0);
		expect(retryAfter('-5')).toBe(0);
	});

	it('reads an HTTP date as the time left until it, never below zero', () => {
		jest.spyOn(Date, 'now').mockReturnValue(Date.parse('Tue, 24 Nov 2026 10:00:00 GMT'));
		expect(retryAfter('Tue, 24 Nov 2026 10:00:05 GMT')).toBe(5000);
		expect(retryAfter('Tue, 24 Nov 2026 09:59:00 GMT')).toBe(0);
	});

	it('has nothing to say when absent or unreadable', () => {
		expect(retryAfter(undefined)).toBeUndefined();
		expect(retryAfter(null)).toBeUndefined();
		expect(retryAfter('')).toBeUndefined();
		expect(retryAfter('soon')).toBeUndefined();
	});
});

describe('RetryBudget', () => {
	it('never retries a failure of a call that is not safe to send again', () => {
		expect(new RetryBudget(false, 5, 60_000).afterFailure(0)).toBeUndefined();
	});

	it('retries failures up to maxRetries, on the backoff curve of the failures so far', () => {
		const budget = new RetryBudget(true, 2, 60_000);
		expect(budget.afterFailure(0)).toBe(250);
		expect(budget.afterFailure(1)).toBe(500);
		expect(budget.afterFailure(2)).toBeUndefined();
	});

	it("waits as long as the caller asks (the service's Retry-After)", () => {
		expect(new RetryBudget(true, 2, 60_000).afterFailure(0, 4000)).toBe(4000);
	});

	it('429s are not failures: they neither use up retries nor move the failure curve', () => {
		const budget = new RetryBudget(true, 1, 60_000);
		expect(budget.afterRateLimit(undefined)).toBe(250);
		expect(budget.afterRateLimit(undefined)).toBe(500);
		// Attempt 2 is the first failure (two 429s before it): the first step of the curve.
		expect(budget.afterFailure(2)).toBe(250);
		expect(budget.afterFailure(3)).toBeUndefined();
	});

	it('a 429 waits for Retry-After or the backoff, whichever is longer (Retry-After: 0 cannot spin)', () => {
		const budget = new RetryBudget(false, 0, 60_000);
		expect(budget.afterRateLimit(3000)).toBe(3000);
		expect(budget.afterRateLimit(0)).toBe(500);
		random.mockReturnValue(0);
		expect(budget.afterRateLimit(undefined)).toBe(0);
	});

	it('429s are retried even for a call that is not safe to send again (nothing was applied)', () => {
		expect(new RetryBudget(false, 0, 60_000).afterRateLimit(100)).toBe(250);
	});

	it('gives up once the waits would pass the budget; a wait that just fits is taken', () => {
		const budget = new RetryBudget(true, 10, 1000);
		expect(budget.afterFailure(0, 600)).toBe(600);
		expect(budget.afterFailure(1, 401)).toBeUndefined();
		expect(budget.afterRateLimit(400)).toBe(400);
		expect(budget.afterRateLimit(1)).toBeUndefined();
	});
});
