/** The Albato Partner API credential's test request, as n8n runs it. */
import { AlbatoPartnerApi } from '../../credentials/AlbatoPartnerApi.credentials';
import { testCredentials } from '../../harness';
import {
	addUsers,
	partnerCredential,
	TOKEN_PATH,
	usePartnerEmulator,
} from '../support/partnerSetup';

const ctx = usePartnerEmulator();

beforeEach(async () => addUsers(ctx.emu, ['c-1']));

describe("the credential's test request", () => {
	const test = (extra = {}) =>
		testCredentials(new AlbatoPartnerApi(), partnerCredential(ctx.emu, extra));

	it('accepts a valid master token and creates nothing', async () => {
		const users = ctx.emu.state.endUsers.size;
		await expect(test({ baseUrl: `${ctx.emu.baseUrl}/` })).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(ctx.emu.requests.map((r) => [r.path, r.status])).toEqual([
			['/wl/acme-saas/get-user-session-token', 404],
		]);
		expect(ctx.emu.state.endUsers.size).toBe(users);
	});

	it.each([
		['a wrong master token', { masterToken: 'nope-nope-nope' }],
		['another partner name', { partnerName: 'someone-else' }],
		['a style the service does not accept', { basicAuthStyle: 'usernamePassword' }],
	])('fails for %s', async (_name, extra) => {
		ctx.emu.partner.set({ acceptStyles: 'raw' });
		expect((await test(extra)).status).toBe('Error');
	});

	it.each([429, 503])('fails on a %i: it proves nothing about the master token', async (status) => {
		ctx.emu.faults.add({ path: TOKEN_PATH, status });
		expect((await test()).status).toBe('Error');
	});

	it('passes with the username style when the service takes only that, as on Auto', async () => {
		ctx.emu.partner.set({ acceptStyles: 'usernamePassword' });
		expect((await test({ basicAuthStyle: 'usernamePassword' })).status).toBe('OK');
		expect((await test()).status).toBe('OK');
		expect((await test({ basicAuthStyle: 'raw' })).status).toBe('Error');
	});

	it('on Auto, refused as Basic username: says what the node tries next and which option pins it', async () => {
		ctx.emu.partner.set({ acceptStyles: 'raw' });
		const refused = await test();
		expect(refused.status).toBe('Error');
		expect(refused.message).toMatch(/tries Basic Token on its first call/);
		expect(refused.message).toMatch(/Send Master Token As: Basic Token/);
		expect((await test({ basicAuthStyle: 'raw' })).status).toBe('OK');
	});
});
