/**
 * The in-flight limiter's tickets and bounds (its AIMD behaviour is in
 * test/transport/limiter.test.ts).
 */
import { InFlightLimiter } from '../../nodes/shared/transport/limiter';

it('a limit of 1 is allowed; below it the error says what was given', () => {
	expect(new InFlightLimiter(1).current).toBe(1);
	expect(() => new InFlightLimiter(0)).toThrow('max must be a whole number ≥ 1, got 0');
});

it('tickets number attempts in the order they start, queued ones included', async () => {
	const limiter = new InFlightLimiter(1);
	const first = await limiter.acquire();
	const queued = limiter.acquire();
	limiter.release();
	expect([first, await queued]).toEqual([1, 2]);
	// A 429 to the queued attempt was sent after the cut of the first: it cuts again.
	const limiterOf2 = new InFlightLimiter(4);
	const tickets = await Promise.all([1, 2, 3, 4].map(() => limiterOf2.acquire()));
	const late = limiterOf2.acquire();
	limiterOf2.rateLimited(tickets[0]);
	for (let i = 0; i < 4; i++) limiterOf2.release();
	const lateTicket = await late;
	expect(lateTicket).toBe(5);
	limiterOf2.rateLimited(lateTicket);
	expect(limiterOf2.current).toBe(1);
});
