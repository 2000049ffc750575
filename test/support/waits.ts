/**
 * The node's own waits, shortened in one test file. The node waits only through n8n-workflow's
 * `sleep` (retry backoff and Retry-After, the Lost Answer Check's re-reads, Refresh User Data's
 * poll interval); here each such wait takes 1/`divisor` of the time the node asked for, in the same
 * order. Nothing changes for users: this replaces `sleep` in this test file's module registry only.
 *
 * Use it only where the emulator changes state by count, not by real time (list lag in reads, not
 * `ms`; no `delayMs` fault racing a wait): the node then makes the same calls with the same bodies
 * in the same order, only sooner. `asked` keeps every wait the node asked for, in milliseconds; set
 * `divisor` to 1 in a test that needs real waits (it is set back before each test).
 *
 * `moveClock`: for code that bounds its waits by the time passed (Refresh User Data's Max Wait),
 * `Date.now()` then also moves on by the time each wait skipped, so that when a wait ends the clock
 * reads as if all of it had passed. Only for one item at a time: a clock moved by one item's wait
 * would make another item's request in flight look slower than it was.
 */
import * as workflowUtils from 'n8n-workflow/dist/cjs/utils';

export interface ShortWaits {
	divisor: number;
	readonly asked: number[];
}

export function useShortWaits(divisor = 20, { moveClock = false } = {}): ShortWaits {
	const waits: ShortWaits = { divisor, asked: [] };
	const realSleep = workflowUtils.sleep;
	const realNow = Date.now;
	let skipped = 0;
	const spies: jest.SpyInstance[] = [];
	beforeAll(() => {
		spies.push(
			jest.spyOn(workflowUtils, 'sleep').mockImplementation(async (ms: number) => {
				waits.asked.push(ms);
				const short = ms / waits.divisor;
				await realSleep(short);
				if (moveClock) skipped += ms - short;
			}),
		);
		if (moveClock)
			spies.push(jest.spyOn(Date, 'now').mockImplementation(() => realNow() + skipped));
	});
	beforeEach(() => {
		waits.divisor = divisor;
	});
	afterAll(() => {
		for (const spy of spies) spy.mockRestore();
	});
	return waits;
}
