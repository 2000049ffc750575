/**
 * How many requests of one execution are in flight at once: at most `max` (Items in Flight).
 * When the service answers 429 the limit is halved, once per window (answers to requests sent
 * before the cut say nothing new); every other answer grows it back by one per window of answers,
 * up to `max`. That is TCP's AIMD: a rate-limited service gets fewer requests at once and the run
 * slows down instead of failing; when the limit lifts, the run speeds up again.
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
	private readonly waiting: Array<() => void> = [];

	constructor(readonly max: number) {
		if (!Number.isInteger(max) || max < 1)
			throw new RangeError(`max must be a whole number ≥ 1, got ${max}`);
		this.limit = max;
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
		this.limit = Math.max(1, this.current / 2);
		this.lastCut = this.started;
	}

	/** The service answered without rate limiting: grow back by one per window of answers. */
	answered(): void {
		if (this.limit >= this.max) return;
		this.limit = Math.min(this.max, this.limit + 1 / this.current);
		this.wake();
	}

	private wake(): void {
		while (this.waiting.length > 0 && this.inFlight < this.current) {
			this.inFlight++;
			this.waiting.shift()!();
		}
	}
}
