/**
 * The node's own waits, shortened in one test file. The node waits only through n8n-workflow's
 * `sleep` (retry backoff and Retry-After, the Lost Answer Check's re-reads, Refresh User Data's poll
 * interval); here each such wait takes 1/`divisor` of the time the node asked for, in the same order.
 * Nothing changes for users: this replaces `sleep` in this test file's module registry only.
 *
 * Use it only where the emulator changes state by count, not by real time (list lag in reads, not
 * `ms`; no `delayMs` fault racing a wait), and where no assertion reads the clock: the node then makes
 * the same calls with the same bodies in the same order, only sooner. `asked` keeps every wait the
 * node asked for, in milliseconds; set `divisor` to 1 in a test that needs real waits (it is set back
 * before each test).
 */
import * as workflowUtils from 'n8n-workflow/dist/cjs/utils';

export interface ShortWaits {
	divisor: number;
	readonly asked: number[];
}

export function useShortWaits(divisor = 20): ShortWaits {
	const waits: ShortWaits = { divisor, asked: [] };
	const realSleep = workflowUtils.sleep;
	let spy: jest.SpyInstance | undefined;
	beforeAll(() => {
		spy = jest.spyOn(workflowUtils, 'sleep').mockImplementation(async (ms: number) => {
			waits.asked.push(ms);
			await realSleep(ms / waits.divisor);
		});
	});
	beforeEach(() => {
		waits.divisor = divisor;
	});
	afterAll(() => spy?.mockRestore());
	return waits;
}
