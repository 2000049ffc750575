/** Items in Flight's value for Auto (slow start). */
export const AUTO_IN_FLIGHT = 0;
/** Auto starts with this many in flight: a run of 8 items or fewer never has more than 8. */
const SLOW_START = 8;
/**
 * Auto multiplies the limit by this with each window of answers without 429. Each new window opens
 * new connections (a TLS handshake each), so fewer, bigger steps keep pace with n8n's HTTP Request
 * node (measured in docs/performance.md).
 */
const GROWTH = 8;
/** Auto's ceiling: 200 items in three windows (8, 64, 128). */
const AUTO_CAP = 128;

/**
 * Items (or groups) started at once: the client's limiter then holds their requests to its window.
 */
export function itemsAtOnce(itemsInFlight: number): number {
	return itemsInFlight === AUTO_IN_FLIGHT ? AUTO_CAP : itemsInFlight;
}

/**
 * How many requests of one execution are in flight at once.
 *
 * Fixed (a number): at most `max`. When the service answers 429 the limit is halved, once per
 * window (answers to requests sent before the cut say nothing new); every other answer grows it
 * back by one per window of answers, up to `max`. That is TCP's AIMD: a rate-limited service gets
 * fewer requests at once and the run slows down instead of failing; when the limit lifts, the run
 * speeds up again.
 *
 * Auto (`start` given): TCP's slow start. Begin at `start`; every answer without 429 adds GROWTH -
 * 1, so the limit grows GROWTH-fold with each window of answers, up to `max`. The first 429 ends
 * the slow start: from then on it is the AIMD above.
 *
 * Pure (no timers, no I/O): the transport calls acquire() before each attempt, then rateLimited()
 * or answered(), then release().
 */
export class InFlightLimiter {
	/** The current limit; fractional while it grows back (+1/limit per answer). */
	private limit: number;
	private inFlight = 0;
	/** Attempts started so far; each attempt's number is its ticket. */
	private started = 0;
	/** `started` at the last cut: a 429 for a ticket up to this was sent under the old limit. */
	private lastCut = 0;
	/** Still in slow start (Auto, no 429 yet). */
	private slowStart: boolean;
	private readonly waiting: Array<() => void> = [];

	constructor(
		readonly max: number,
		start?: number,
	) {
		if (!Number.isInteger(max) || max < 1)
			throw new RangeError(`max must be a whole number ≥ 1, got ${max}`);
		if (start !== undefined && (!Number.isInteger(start) || start < 1 || start > max))
			throw new RangeError(`start must be a whole number from 1 to max, got ${start}`);
		this.limit = start ?? max;
		this.slowStart = start !== undefined;
	}

	/** The limiter for Items in Flight: a number is a fixed cap, AUTO_IN_FLIGHT a slow start. */
	static forItemsInFlight(itemsInFlight: number): InFlightLimiter {
		return itemsInFlight === AUTO_IN_FLIGHT
			? new InFlightLimiter(AUTO_CAP, SLOW_START)
			: new InFlightLimiter(itemsInFlight);
	}

	/** Requests allowed in flight right now. */
	get current(): number {
		return Math.max(1, Math.floor(this.limit));
	}

	/** Requests in flight right now. */
	get active(): number {
		return this.inFlight;
	}

	/** Waits for a free slot (first come, first served) and returns the attempt's ticket. */
	acquire(): Promise<number> {
		if (this.waiting.length === 0 && this.inFlight < this.current) {
			this.inFlight++;
			return Promise.resolve(++this.started);
		}
		return new Promise((resolve) => this.waiting.push(() => resolve(++this.started)));
	}

	/** The attempt is over (answered or failed): its slot goes to the next in line. */
	release(): void {
		this.inFlight--;
		this.wake();
	}

	/** The service answered 429 to the attempt with this ticket: halve, once per window. */
	rateLimited(ticket: number): void {
		if (ticket <= this.lastCut) return;
		// In slow start the limit ran ahead of what was in flight when the service said stop: halve
		// that.
		const load = this.slowStart ? Math.min(this.current, this.inFlight) : this.current;
		this.slowStart = false;
		this.limit = Math.max(1, load / 2);
		this.lastCut = this.started;
	}

	/**
	 * The service answered without rate limiting: grow (GROWTH-fold per window in slow start, else
	 * +1).
	 */
	answered(): void {
		if (this.limit >= this.max) return;
		const step = this.slowStart ? GROWTH - 1 : 1 / this.current;
		this.limit = Math.min(this.max, this.limit + step);
		this.wake();
	}

	private wake(): void {
		while (this.waiting.length > 0 && this.inFlight < this.current) {
			this.inFlight++;
			this.waiting.shift()!();
		}
	}
}

/** Only for tests: what they check or reset directly. The node never reads this. */
export const forTests = { AUTO_CAP, GROWTH, SLOW_START };
