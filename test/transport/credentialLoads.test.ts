/**
 * The credential is read and decrypted once per execution, not once per request (in n8n each load
 * is a database read and a decryption). Counted where n8n-core loads it: the harness's credentials
 * helper (n8n's stand-in for the database).
 */
import { TestCredentialsHelper } from '../../harness/credentials';
import { addUsers, runPartner, usePartnerEmulator } from '../support/partnerSetup';
import { runNode } from '../support/setup';

const ctx = usePartnerEmulator();

const loads = () => jest.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');
afterEach(() => jest.restoreAllMocks());

describe('one credential load per execution', () => {
	it('access token: two items, a request each', async () => {
		const spy = loads();
		const run = await runNode(
			ctx.emu,
			{ resource: 'solution', operation: 'getAll', returnAll: true },
			{ inputItems: [{}, {}] },
		);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(['GET /solution/apps', 'GET /solution/apps']);
		expect(spy.mock.calls.map((call) => call[2])).toEqual(['albatoSolutionsApi']);
	});

	it("partner: the token calls and the end users' calls of two end users", async () => {
		await addUsers(ctx.emu, ['c-1', 'c-2']);
		const spy = loads();
		const run = await runPartner(
			ctx.emu,
			{ resource: 'installation', operation: 'getAll', returnAll: true },
			{ inputItems: [{ customer: 'c-1' }, { customer: 'c-2' }] },
		);
		expect(run.error).toBeUndefined();
		expect(run.calls).toHaveLength(4);
		expect(spy.mock.calls.map((call) => call[2])).toEqual(['albatoPartnerApi']);
	});
});
