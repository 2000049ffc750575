/**
 * The in-flight limiter alone: slow start (Auto), a fixed cap, halving on a 429 once per window,
 * growing back.
 */
import { AUTO_IN_FLIGHT, unitsAtOnce } from '../../nodes/shared/transport/concurrency';
import { forTests, InFlightLimiter } from '../../nodes/shared/transport/limiter';

const { AUTO_CAP, GROWTH, SLOW_START } = forTests;

/** Acquires `n` slots without awaiting them; reports which have been granted so far. */
function request(limiter: InFlightLimiter, n: number) {
	const granted: number[] = [];
	const tickets = Array.from({ length: n }, (_, i) =>
		limiter.acquire().then((ticket) => {
			granted.push(i);
			return ticket;
		}),
	);
	return { granted, tickets };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('InFlightLimiter', () => {
	it('lets `max` in at once and queues the rest, first come first served', async () => {
		const limiter = new InFlightLimiter(3);
		const { granted } = request(limiter, 5);
		await settle();
		expect(granted).toEqual([0, 1, 2]);
		expect(limiter.active).toBe(3);
		limiter.release();
		await settle();
		expect(granted).toEqual([0, 1, 2, 3]);
		limiter.release();
		limiter.release();
		await settle();
		expect(granted).toEqual([0, 1, 2, 3, 4]);
		expect(limiter.active).toBe(2);
	});

	it('halves on a 429, down to 1, and admits no one new until the in-flight count is under the limit', async () => {
		const limiter = new InFlightLimiter(8);
		const first = request(limiter, 8);
		const tickets = await Promise.all(first.tickets);
		limiter.rateLimited(tickets[0]);
		expect(limiter.current).toBe(4);
		const later = request(limiter, 1);
		for (let i = 0; i < 4; i++) limiter.release();
		await settle();
		expect(later.granted).toEqual([]); // 4 still in flight, limit 4
		limiter.release();
		await settle();
		expect(later.granted).toEqual([0]);
	});

	it('cuts once per window: 429s to requests sent before the cut change nothing', async () => {
		const limiter = new InFlightLimiter(8);
		const tickets = await Promise.all(request(limiter, 8).tickets);
		for (const ticket of tickets) limiter.rateLimited(ticket);
		expect(limiter.current).toBe(4);
		for (let i = 0; i < 8; i++) limiter.release();
		// A request sent after the cut that is rate limited too: cut again.
		const [next] = await Promise.all(request(limiter, 1).tickets);
		limiter.rateLimited(next);
		expect(limiter.current).toBe(2);
		limiter.release();
		const [third] = await Promise.all(request(limiter, 1).tickets);
		limiter.rateLimited(third);
		limiter.release();
		const [fourth] = await Promise.all(request(limiter, 1).tickets);
		limiter.rateLimited(fourth);
		expect(limiter.current).toBe(1);
	});

	it('grows back by one per window of answers, never above max', async () => {
		const limiter = new InFlightLimiter(4);
		const [ticket] = await Promise.all(request(limiter, 1).tickets);
		limiter.rateLimited(ticket);
		limiter.release();
		expect(limiter.current).toBe(2);
		limiter.answered();
		expect(limiter.current).toBe(2); // 2.5
		limiter.answered();
		expect(limiter.current).toBe(3);
		for (let i = 0; i < 3; i++) limiter.answered();
		expect(limiter.current).toBe(4);
		for (let i = 0; i < 20; i++) limiter.answered();
		expect(limiter.current).toBe(4);
	});

	it('growing lets queued requests in', async () => {
		const limiter = new InFlightLimiter(2);
		const [a, b] = await Promise.all(request(limiter, 2).tickets);
		limiter.rateLimited(a); // limit 1, 2 in flight
		limiter.release(); // b's sibling answered: 1 in flight
		const queued = request(limiter, 1);
		await settle();
		expect(queued.granted).toEqual([]);
		limiter.answered(); // 1 → 2
		await settle();
		expect(queued.granted).toEqual([0]);
		expect(b).toBe(2);
	});

	it('refuses a max that is not a whole number ≥ 1', () => {
		expect(() => new InFlightLimiter(0)).toThrow(RangeError);
		expect(() => new InFlightLimiter(2.5)).toThrow(RangeError);
	});
});

/**
 * Runs `items` one-request items through the limiter window by window: every request in flight is
 * answered (429 when more than `rateLimit` are in flight at once), then the next window goes out.
 * Returns the number in flight in each window.
 */
async function windows(limiter: InFlightLimiter, items: number, rateLimit = Infinity) {
	let left = items;
	const perWindow: number[] = [];
	while (left > 0) {
		const size = Math.min(left, limiter.current);
		const tickets = await Promise.all(Array.from({ length: size }, () => limiter.acquire()));
		perWindow.push(limiter.active);
		tickets.forEach((ticket, i) => {
			if (i >= rateLimit) limiter.rateLimited(ticket);
			else {
				limiter.answered();
				left--;
			}
		});
		tickets.forEach(() => limiter.release());
	}
	return perWindow;
}

describe('InFlightLimiter, Auto (slow start)', () => {
	it('Items in Flight 0 is Auto: starts at SLOW_START, capped at AUTO_CAP; a number is a fixed cap', () => {
		const auto = InFlightLimiter.forItemsInFlight(AUTO_IN_FLIGHT);
		expect([auto.current, auto.max]).toEqual([SLOW_START, AUTO_CAP]);
		const fixed = InFlightLimiter.forItemsInFlight(8);
		expect([fixed.current, fixed.max]).toEqual([8, 8]);
		expect([unitsAtOnce(AUTO_IN_FLIGHT), unitsAtOnce(3)]).toEqual([AUTO_CAP, 3]);
		// With the rollout guard on, units start as the client's window allows (at least one).
		expect([unitsAtOnce(AUTO_IN_FLIGHT, 8), unitsAtOnce(3, 8), unitsAtOnce(3, 0)]).toEqual([
			8, 3, 1,
		]);
	});

	it('grows GROWTH-fold with each window of answers, up to the cap (200 items, no rate limit)', async () => {
		const perWindow = await windows(InFlightLimiter.forItemsInFlight(AUTO_IN_FLIGHT), 200);
		expect(GROWTH).toBe(8);
		expect(perWindow).toEqual([8, 64, 128]);
	});

	it('a run of 8 items or fewer never has more than 8 in flight', async () => {
		for (let items = 1; items <= 8; items++) {
			const perWindow = await windows(InFlightLimiter.forItemsInFlight(AUTO_IN_FLIGHT), items);
			expect(Math.max(...perWindow)).toBeLessThanOrEqual(8);
			expect(perWindow.reduce((a, b) => a + b, 0)).toBe(items);
		}
	});

	it('the first 429 halves and ends the slow start: then +1 per window (200 items, 10 served at once)', async () => {
		const perWindow = await windows(InFlightLimiter.forItemsInFlight(AUTO_IN_FLIGHT), 200, 10);
		// 8 pass; 64 meet the limit: halved to 32, 16, then 8 (each still hit it), then about +1 per
		// window until the limit is hit again, then halved (AIMD's saw-tooth).
		expect(perWindow.slice(0, 10)).toEqual([8, 64, 32, 16, 8, 9, 9, 10, 11, 6]);
		expect(Math.max(...perWindow.slice(4))).toBe(11);
	});

	it('a fixed number keeps its meaning: that many from the start, halved on 429, never above', async () => {
		const perWindow = await windows(InFlightLimiter.forItemsInFlight(8), 40, 6);
		expect(perWindow.slice(0, 3)).toEqual([8, 4, 5]);
		expect(Math.max(...perWindow)).toBe(8);
	});

	it('refuses a start outside 1…max', () => {
		expect(() => new InFlightLimiter(4, 0)).toThrow(RangeError);
		expect(() => new InFlightLimiter(4, 5)).toThrow(RangeError);
	});
});
