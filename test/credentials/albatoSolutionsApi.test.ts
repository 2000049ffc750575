/**
 * The credential's "Test" button, as n8n runs it: the test request with the credential's
 * authenticate.
 */
import { AlbatoSolutionsApi } from '../../credentials/AlbatoSolutionsApi.credentials';
import { testCredentials } from '../../harness';
import { useEmulator } from '../support/setup';

const ctx = useEmulator();

describe('Albato Solutions API credential test', () => {
	it('passes with a valid token (trailing slash on the base URL tolerated) and calls GET /solution/apps', async () => {
		const result = await testCredentials(new AlbatoSolutionsApi(), {
			baseUrl: `${ctx.emu.baseUrl}/`,
			accessToken: ctx.token,
		});
		expect(result.status).toBe('OK');
		expect(
			ctx.emu.requests.map((request) => `${request.method} ${request.path} ${request.user}`),
		).toEqual(['GET /solution/apps user-1']);
	});

	it('fails with a token the service rejects', async () => {
		const result = await testCredentials(new AlbatoSolutionsApi(), {
			baseUrl: ctx.emu.baseUrl,
			accessToken: 'not-a-jwt',
		});
		expect(result.status).toBe('Error');
		expect(ctx.emu.requests.at(-1)!.status).toBe(401);
	});
});
