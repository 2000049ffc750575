/** The in-flight limiter alone: `max` at once in arrival order, halving on a 429 once per window, growing back, and its max checked. */
import { InFlightLimiter } from '../../nodes/shared/transport/limiter';

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
