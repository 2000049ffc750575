/**
 * A picker or mapper whose call answers 2xx with an empty body says it could not load, naming what;
 * it never shows an empty list ("no solutions", "This solution has no connection settings").
 */
import { METHODS, PARENTS, usePickers } from '../support/methodsSetup';

const pickers = usePickers();

describe('pickers and mappers: an empty 2xx answer is an error, not an empty list', () => {
	it.each(METHODS)('$method', async ({ kind, method, what }) => {
		pickers.emu.faults.add({ path: /.*/, emptyBody: true, times: 10 });
		const { error, calls } = await pickers.failure(kind, method, PARENTS[method]);
		expect(error.message).toMatch(
			new RegExp(
				`^Could not load ${what}: The service's .+ could not be read: it answered an empty body$`,
			),
		);
		expect(error.description).toMatch(/→ 200\. This call changes nothing; try again later\./);
		expect(calls.length).toBeGreaterThan(0);
	});
});
