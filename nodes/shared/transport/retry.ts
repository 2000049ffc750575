/**
 * When a failed call is tried again: backoff, Retry-After, and the time one call may spend waiting.
 */

/** Statuses worth another try: 429 (nothing applied) and the gateway's 502–504. */
export const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

const BASE_DELAY = 250;
const MAX_DELAY = 8_000;

/**
 * Full jitter on an exponential curve (the AWS SDKs' choice): spreads retries of concurrent items.
 */
function backoff(attempt: number): number {
	return Math.round(Math.random() * Math.min(MAX_DELAY, BASE_DELAY * 2 ** attempt));
}

/** `Retry-After` in seconds or as an HTTP date. */
export function retryAfter(header: unknown): number | undefined {
	if (header === undefined || header === null || header === '') return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(header));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The retries of one call. Time spent waiting between attempts (not in the limiter's queue) is
 * bounded by the budget; 429s do not count as failures: the limiter lowers the requests in flight,
 * and the budget alone bounds the waiting.
 */
export class RetryBudget {
	private waited = 0;

	private rateLimited = 0;

	constructor(
		/** Safe to send again (idempotent): only then are failures other than 429 retried. */
		private readonly retryable: boolean,
		private readonly maxRetries: number,
		private readonly budget: number,
	) {}

	/**
	 * After a network failure or a 502–504 on attempt `attempt`: the wait before the next, or
	 * undefined to give up.
	 */
	afterFailure(attempt: number, wanted?: number): number | undefined {
		const failures = attempt - this.rateLimited;
		if (!this.retryable || failures >= this.maxRetries) return undefined;
		return this.spend(wanted ?? backoff(failures));
	}

	/**
	 * After a 429, which refused the call before applying it: safe to send again for every method,
	 * POST included. A repeated 429 also backs off (at least the jittered curve): Retry-After: 0
	 * cannot spin.
	 */
	afterRateLimit(wanted: number | undefined): number | undefined {
		const wait = Math.max(wanted ?? 0, backoff(this.rateLimited));
		this.rateLimited++;
		return this.spend(wait);
	}

	private spend(wait: number): number | undefined {
		if (this.waited + wait > this.budget) return undefined;
		this.waited += wait;
		return wait;
	}
}

/** Only for tests: what they check or reset directly. The node never reads this. */
export const forTests = { backoff };
