/**
 * The process's ceiling for Auto (SharedCeiling): the executions of one worker together stay under
 * AUTO_CAP, one alone still reaches it, waiting is first come first served across executions, and a
 * failed request gives its slot back. Through the client and n8n-core: limiter.client.test.ts.
 */
import { AUTO_IN_FLIGHT } from '../../nodes/shared/transport/concurrency';
import { forTests, InFlightLimiter, SharedCeiling } from '../../nodes/shared/transport/limiter';

const { AUTO_CAP } = forTests;

const auto = (ceiling: SharedCeiling) => InFlightLimiter.forItemsInFlight(AUTO_IN_FLIGHT, ceiling);
const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Sends `items` one-request items through `limiter`, each answered `answerAfter()` event-loop turns
 * later (a 429 when `rateLimited()` says so); records the most the ceiling held at once.
 */
async function run(
	limiter: InFlightLimiter,
	items: number,
	peak: { ceiling: SharedCeiling; most: number },
	answerAfter: () => number = () => 1,
) {
	await Promise.all(
		Array.from({ length: items }, async () => {
			const ticket = await limiter.acquire();
			peak.most = Math.max(peak.most, peak.ceiling.active);
			try {
				for (let turns = answerAfter(); turns > 0; turns--) await settle();
				limiter.answered();
			} finally {
				limiter.release();
			}
			return ticket;
		}),
	);
}

describe('SharedCeiling', () => {
	it('two Auto limiters sharing it never have more than AUTO_CAP in flight together, and both finish', async () => {
		const ceiling = new SharedCeiling();
		expect(ceiling.max).toBe(AUTO_CAP);
		const peak = { ceiling, most: 0 };
		let seed = 7;
		const turns = () => 1 + ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 4);
		const [a, b] = [auto(ceiling), auto(ceiling)];
		await Promise.all([run(a, 600, peak, turns), run(b, 600, peak, turns)]);
		expect(peak.most).toBe(AUTO_CAP);
		// Each grew its own limit to the cap: the ceiling, not the limiters, held them to 128 together.
		expect([a.current, b.current]).toEqual([AUTO_CAP, AUTO_CAP]);
		expect([ceiling.active, ceiling.queued, a.active, b.active]).toEqual([0, 0, 0, 0]);
	});

	it('one Auto limiter alone reaches the whole cap, in the same windows as without it (8, 64, 128)', async () => {
		const ceiling = new SharedCeiling();
		const limiter = auto(ceiling);
		const perWindow: number[] = [];
		for (let left = 200; left > 0; ) {
			const size = Math.min(left, limiter.current);
			const tickets = await Promise.all(Array.from({ length: size }, () => limiter.acquire()));
			perWindow.push(ceiling.active);
			tickets.forEach(() => limiter.answered());
			tickets.forEach(() => limiter.release());
			left -= size;
		}
		expect(perWindow).toEqual([8, 64, 128]);
	});

	it('grants slots first come, first served across limiters', async () => {
		const ceiling = new SharedCeiling(2);
		const [a, b] = [new InFlightLimiter(4, 1, ceiling), new InFlightLimiter(4, 1, ceiling)];
		for (let i = 0; i < 6; i++) a.answered(); // a's own limit is 4 now
		const order: string[] = [];
		const take = (limiter: InFlightLimiter, name: string) =>
			limiter.acquire().then(() => order.push(name));
		await Promise.all([take(a, 'a1'), take(a, 'a2')]); // the ceiling is full
		const waiting = [take(b, 'b1'), take(a, 'a3'), take(a, 'a4')];
		await settle();
		expect([order, ceiling.queued]).toEqual([['a1', 'a2'], 3]);
		a.release();
		await settle();
		expect(order.at(-1)).toBe('b1'); // b asked first: a's own later requests wait behind it
		a.release();
		b.release();
		await Promise.all(waiting);
		expect(order).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
	});

	it('a second execution is not starved by a first one that keeps its cap busy', async () => {
		const ceiling = new SharedCeiling(8);
		const [first, second] = [
			new InFlightLimiter(8, 8, ceiling),
			new InFlightLimiter(8, 8, ceiling),
		];
		const peak = { ceiling, most: 0 };
		const done: string[] = [];
		await Promise.all([
			run(first, 400, peak).then(() => done.push('first')),
			// Starts once the first holds the whole ceiling.
			settle().then(() => run(second, 40, peak).then(() => done.push('second'))),
		]);
		// 40 items of the second against 400 of the first: it ends first when slots alternate.
		expect(done).toEqual(['second', 'first']);
		expect(peak.most).toBe(8);
	});

	it('a request that fails gives its slot back (the client releases in a finally)', async () => {
		const ceiling = new SharedCeiling(1);
		const [a, b] = [auto(ceiling), auto(ceiling)];
		await a.acquire(); // a holds the only slot
		const next = b.acquire();
		await settle();
		expect(ceiling.queued).toBe(1);
		const failing = async () => {
			try {
				throw new Error('socket hang up');
			} finally {
				a.release();
			}
		};
		await expect(failing()).rejects.toThrow('socket hang up');
		await next; // the slot went to b
		expect([ceiling.active, a.active, b.active]).toEqual([1, 0, 1]);
		b.release();
		expect([ceiling.active, ceiling.queued]).toEqual([0, 0]);
	});

	it('a fixed Items in Flight is the execution’s own: it takes no slot of the ceiling', async () => {
		const ceiling = new SharedCeiling(4);
		const fixed = InFlightLimiter.forItemsInFlight(32, ceiling);
		await Promise.all(Array.from({ length: 32 }, () => fixed.acquire()));
		expect([fixed.active, ceiling.active]).toEqual([32, 0]);
	});

	it('a 429 in slow start halves what was sent, not what waits for the ceiling', async () => {
		const ceiling = new SharedCeiling(10);
		const limiter = new InFlightLimiter(64, 64, ceiling);
		const tickets = Array.from({ length: 40 }, () => limiter.acquire());
		await settle();
		expect([limiter.active, ceiling.active]).toEqual([40, 10]);
		limiter.rateLimited(await tickets[0]);
		expect(limiter.current).toBe(5); // 10 sent, halved (40 / 2 without the ceiling)
		for (const ticket of tickets) {
			await ticket;
			limiter.release();
		}
		expect([limiter.active, ceiling.active]).toEqual([0, 0]);
	});

	it('refuses a max that is not a whole number ≥ 1', () => {
		expect(() => new SharedCeiling(0)).toThrow('max must be a whole number ≥ 1, got 0');
		expect(() => new SharedCeiling(1.5)).toThrow(RangeError);
	});
});
