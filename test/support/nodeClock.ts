/**
 * The node's clock in a test file: `Date.now` shifted so that it reads `at` from `setNow(at)` on,
 * and real again after each test (Run → Get New's windows read the node's clock).
 */
export const realNow = Date.now.bind(Date);

export function useNodeClock(): { setNow: (at: number) => void } {
	let shift = 0;
	beforeEach(() => {
		shift = 0;
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
	});
	afterEach(() => jest.restoreAllMocks());
	return { setNow: (at) => void (shift = at - realNow()) };
}
