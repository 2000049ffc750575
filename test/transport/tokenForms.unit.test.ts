/**
 * What the process keeps of the forms found out (tokenForms.ts), without a call: how a token goes
 * now, and the bound on what is kept. test/transport/tokenForms.test.ts runs the calls.
 */
import { forTests, Trial, wayIn, wayName } from '../../nodes/shared/transport/tokenForms';

const auto = ['basicUsername', 'bearer'] as const;
const pin = { where: 'the Albato Solutions API credential', option: 'Send Token As' };

/** A call on Auto that the service took in the first form tried. */
const takenFirst = (key: string) => new Trial(key, auto, pin).accepted();

beforeEach(() => forTests.clear());

describe('wayIn: how a token goes now', () => {
	it('several forms, none found out yet: none, named so', () => {
		expect(wayIn('k', auto)).toBeUndefined();
		expect(wayName(wayIn('k', auto))).toBe('not found out yet');
	});

	it('the only form: that one; a form found out: that one, for its key only', () => {
		expect(wayIn('k', ['basicRaw'])).toBe('basicRaw');
		takenFirst('k');
		expect(wayIn('k', auto)).toBe('basicUsername');
		expect(wayIn('other', auto)).toBeUndefined();
	});
});

describe('the forms kept per process', () => {
	const key = (i: number) => `\ncap-${i}\n`;

	it('at most 10,000, the oldest dropped first; a form learnt again drops nothing', () => {
		for (let i = 0; i < 10_000; i++) takenFirst(key(i));
		expect(forTests.known('\ncap-')).toHaveLength(10_000);
		takenFirst(key(5));
		expect(forTests.known(key(0))).toEqual(['basicUsername']);
		takenFirst(key(10_000));
		expect(forTests.known('\ncap-')).toHaveLength(10_000);
		expect(forTests.known(key(0))).toEqual([]);
		expect(forTests.known(key(1))).toEqual(['basicUsername']);
		expect(forTests.known(key(10_000))).toEqual(['basicUsername']);
	});
});
