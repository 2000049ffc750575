/**
 * An optional rate limit of the emulated service (outside the spec: the real service's limits are
 * not documented): at most `maxConcurrent` requests are served at once; one more is answered 429
 * with `Retry-After`. `serviceMs` makes each admitted request take that long, so that concurrency
 * is real on loopback, where the emulator otherwise answers in well under a millisecond.
 */
import type http from 'http';

export interface RateLimitRule {
	/** Requests served at once; more get 429. */
	maxConcurrent: number;
	/** Retry-After of the 429 (seconds). Default 1. */
	retryAfterSeconds?: number;
	/** Time each admitted request takes before it is handled (ms). Default 0. */
	serviceMs?: number;
}

export interface RateLimitStats extends Required<RateLimitRule> {
	active: number;
	/** Most requests served at once so far. */
	peak: number;
	admitted: number;
	rejected: number;
}

export class RateLimit {
	readonly stats: RateLimitStats;

	constructor(rule: RateLimitRule) {
		const { maxConcurrent, retryAfterSeconds = 1, serviceMs = 0 } = rule;
		if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1)
			throw new Error('rate limit: maxConcurrent must be a whole number ≥ 1');
		if (!(retryAfterSeconds >= 0) || !(serviceMs >= 0))
			throw new Error('rate limit: retryAfterSeconds and serviceMs must be ≥ 0');
		this.stats = {
			maxConcurrent,
			retryAfterSeconds,
			serviceMs,
			active: 0,
			peak: 0,
			admitted: 0,
			rejected: 0,
		};
	}

	/** True when the request may be served; it then counts as active until its response closes. */
	admit(res: http.ServerResponse): boolean {
		const { stats } = this;
		if (stats.active >= stats.maxConcurrent) {
			stats.rejected++;
			return false;
		}
		stats.active++;
		stats.admitted++;
		stats.peak = Math.max(stats.peak, stats.active);
		res.once('close', () => stats.active--);
		return true;
	}
}
