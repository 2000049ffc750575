/**
 * The Albato Solutions API (Access Token) credential's Test button, as n8n runs it: the nodes'
 * `testedBy` function (n8n's CredentialTestContext, real HTTP to the emulator).
 */
import type { ICredentialType } from 'n8n-workflow';
import { AlbatoSolutionsApi } from '../../credentials/AlbatoSolutionsApi.credentials';
import { VARIANT_CHOICES } from '../../emulator/render';
import { testCredential } from '../../harness/credentialTest';
import { useEmulator } from '../support/setup';

const ctx = useEmulator();
const PERMANENT = 'perm_credentialTestUser1Token0123456789';

const test = (extra = {}) =>
	testCredential(new AlbatoSolutionsApi(), { baseUrl: ctx.emu.baseUrl, ...extra });
const sent = () => ctx.emu.requests.map((r) => `${r.method} ${r.path} ${r.status} ${r.auth}`);

describe('Albato Solutions API credential test', () => {
	it('has no test request of its own: n8n would use it first, and send one form only', () => {
		expect((new AlbatoSolutionsApi() as ICredentialType).test).toBeUndefined();
	});

	it('passes with a valid JWT (trailing slash tolerated), one GET /solution/apps as Bearer', async () => {
		const result = await test({ baseUrl: `${ctx.emu.baseUrl}/`, accessToken: ctx.token });
		expect(result).toEqual({
			status: 'OK',
			message:
				'Connection successful: the service took the access token as Bearer (on Auto; the node does the same)',
		});
		expect(sent()).toEqual(['GET /solution/apps 200 bearer']);
	});

	it.each(VARIANT_CHOICES.strictAuth)(
		'passes with a right permanent token on Auto under the %s reading',
		async (strictAuth) => {
			ctx.emu.setVariants({ strictAuth });
			ctx.emu.state.permanentTokens.set(PERMANENT, 'user-1');
			const result = await test({ accessToken: PERMANENT });
			expect(result.status).toBe('OK');
			const form = strictAuth === 'noBasicUsername' ? 'Bearer' : 'Basic Username';
			expect(result.message).toContain(`took the access token as ${form}`);
			expect(result.message).not.toContain(PERMANENT);
		},
	);

	it('a wrong token: "most likely wrong" first, the service\'s words, no form advice', async () => {
		const result = await test({ accessToken: 'not-a-jwt-and-not-a-token' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^The token is most likely wrong: the service refused it in every form \(Basic Username: 401 "/,
		);
		expect(result.message).not.toMatch(/Send Token As/);
		expect(ctx.emu.requests.map((r) => r.status)).toEqual([401, 401]);
	});

	it('Bearer chosen, the service takes a permanent token only as Basic username: says so, not Bearer', async () => {
		ctx.emu.setVariants({ strictAuth: 'noBearerPermanent' });
		ctx.emu.state.permanentTokens.set(PERMANENT, 'user-1');
		const result = await test({ accessToken: PERMANENT, headerForm: 'bearer' });
		expect(result).toEqual({
			status: 'Error',
			message:
				'The access token is right, but the service refused it as Bearer (401) and took it as Basic Username: set Send Token As to Basic Username, or Auto.',
		});
	});
});
