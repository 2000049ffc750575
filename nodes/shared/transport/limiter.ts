import { AUTO_CAP, GROWTH, requestLimits, SLOW_START } from './concurrency';

/**
 * Requests in flight of every Auto limiter in one process, together: at most `max` (AUTO_CAP).
 *
 * Why: in queue mode a worker runs up to `--concurrency` executions at once, and each Auto
 * execution grows to AUTO_CAP: five batch executions of a fleet change made up to 640 requests in
 * flight per worker. With the ceiling they share AUTO_CAP, so what a worker sends the service
 * stays bounded however many executions it runs; one execution alone still reaches it. Slots are
 * granted first come, first served across executions, so none starves another. A number the user
 * set for Items in Flight stays that execution's own: only Auto shares the ceiling.
 *
 * Pure (no timers): a slot is held only between acquire() and release(), which the client calls in
 * a `finally`, so an error, a timeout or a cancelled execution's aborted request gives it back. A
 * waiter is not dropped when its execution is cancelled: it gets its turn, and n8n's request helper
 * then fails at once on the aborted signal (the slot comes back in the same `finally`).
 */
export class SharedCeiling {
	private inFlight = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(readonly max: number = AUTO_CAP) {
		if (!Number.isInteger(max) || max < 1)
			throw new RangeError(`max must be a whole number ≥ 1, got ${max}`);
	}

	/** Requests holding a slot right now. */
	get active(): number {
		return this.inFlight;
	}

	/** Requests waiting for a slot right now. */
	get queued(): number {
		return this.waiting.length;
	}

	/** Waits for a slot, first come first served among every limiter sharing the ceiling. */
	acquire(): Promise<void> {
		if (this.waiting.length === 0 && this.inFlight < this.max) {
			this.inFlight++;
			return Promise.resolve();
		}
		return new Promise((resolve) => this.waiting.push(resolve));
	}

	/** A slot is given back: it passes straight to the first in line, if any. */
	release(): void {
		const next = this.waiting.shift();
		if (next) next();
		else this.inFlight--;
	}
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
 * Shared (`ceiling` given, Auto only): a request that has its own slot also waits for a slot of
 * the process's SharedCeiling, so all Auto executions of a worker together stay under it.
 *
 * Pure (no timers, no I/O): the transport calls acquire() before each attempt, then rateLimited()
 * or answered(), then release().
 */
export class InFlightLimiter {
	/** The current limit; fractional while it grows back (+1/limit per answer). */
	private limit: number;
	/** Requests holding a slot of this limiter (sent, or waiting for the shared ceiling). */
	private inFlight = 0;
	/** Requests past both this limiter and the shared ceiling: sent. */
	private sent = 0;
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
		private readonly ceiling?: SharedCeiling,
	) {
		if (!Number.isInteger(max) || max < 1)
			throw new RangeError(`max must be a whole number ≥ 1, got ${max}`);
		if (start !== undefined && (!Number.isInteger(start) || start < 1 || start > max))
			throw new RangeError(`start must be a whole number from 1 to max, got ${start}`);
		this.limit = start ?? max;
		this.slowStart = start !== undefined;
	}

	/** The limiter for Items in Flight, as concurrency.ts decides it; `ceiling`: Auto's shared one. */
	static forItemsInFlight(itemsInFlight: number, ceiling?: SharedCeiling): InFlightLimiter {
		const { max, start, shared } = requestLimits(itemsInFlight);
		return new InFlightLimiter(max, start, shared ? ceiling : undefined);
	}

	/** Requests allowed in flight right now. */
	get current(): number {
		return Math.max(1, Math.floor(this.limit));
	}

	/** Requests in flight right now. */
	get active(): number {
		return this.inFlight;
	}

	/**
	 * Waits for a free slot (first come, first served), then for the shared ceiling's, and returns
	 * the attempt's ticket (numbered when it is sent).
	 */
	async acquire(): Promise<number> {
		await this.ownSlot();
		if (this.ceiling) await this.ceiling.acquire();
		this.sent++;
		return ++this.started;
	}

	/** The attempt is over (answered or failed): its slots go to the next in line. */
	release(): void {
		this.sent--;
		this.ceiling?.release();
		this.inFlight--;
		this.wake();
	}

	private ownSlot(): Promise<void> {
		if (this.waiting.length === 0 && this.inFlight < this.current) {
			this.inFlight++;
			return Promise.resolve();
		}
		return new Promise((resolve) => this.waiting.push(resolve));
	}

	/** The service answered 429 to the attempt with this ticket: halve, once per window. */
	rateLimited(ticket: number): void {
		if (ticket <= this.lastCut) return;
		// In slow start the limit ran ahead of what was in flight when the service said stop: halve
		// that (what was sent: requests waiting for the shared ceiling did not reach the service).
		const load = this.slowStart ? Math.min(this.current, this.sent) : this.current;
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
