/**
 * Auto: each token in the form the service takes, found on a 401 and kept per credential and
 * process; explicit choices sent as chosen; saved credentials keep what they sent.
 */
import type { INodeParameters } from 'n8n-workflow';

import { AlbatoSolutionsApi } from '../../credentials/AlbatoSolutionsApi.credentials';
import { testCredential } from '../../harness/credentialTest';
import { forTests as tokenForms } from '../../nodes/shared/transport/tokenForms';
import { forTests as tokenCache } from '../../nodes/shared/transport/tokenCache';
import {
	addUsers,
	partnerCredential,
	runPartner,
	tokenCalls,
	usePartnerEmulator,
} from '../support/partnerSetup';
import { runNode } from '../support/setup';

const ctx = usePartnerEmulator();

const getApps: INodeParameters = { resource: 'solution', operation: 'getAll', returnAll: true };
const listInstallations: INodeParameters = {
	resource: 'installation',
	operation: 'getAll',
	returnAll: true,
};

/** The Authorization forms of the calls since `from`, with their statuses ("basicUsername 401"). */
const sent = (from = 0) => ctx.emu.requests.slice(from).map((r) => `${r.auth} ${r.status}`);

/** A permanent token of a new end user (what add-user hands out). */
async function permanentToken(id: string): Promise<string> {
	await addUsers(ctx.emu, [id]);
	const user = ctx.emu.state.endUsers.get(`${ctx.emu.partner.name}\n${id}`);
	return user?.permanentToken ?? '';
}

describe('the Access Token credential', () => {
	it('a JWT goes as Bearer, as before (a credential saved without Send Token As)', async () => {
		const run = await runNode(ctx.emu, getApps);
		expect(run.error).toBeUndefined();
		expect(sent()).toEqual(['bearer 200']);
	});

	it('a permanent token goes as the documented Basic username first', async () => {
		const token = await permanentToken('p-1');
		const from = ctx.emu.requests.length;
		const run = await runNode(ctx.emu, getApps, { token });
		expect(run.error).toBeUndefined();
		expect(sent(from)).toEqual(['basicUsername 200']);
	});

	it('refused as Basic username: once as Bearer, then Bearer from the start for this credential', async () => {
		ctx.emu.setVariants({ strictAuth: 'noBasicUsername' });
		const token = await permanentToken('p-1');
		const from = ctx.emu.requests.length;
		expect((await runNode(ctx.emu, getApps, { token })).error).toBeUndefined();
		expect(sent(from)).toEqual(['basicUsername 401', 'bearer 200']);
		const again = ctx.emu.requests.length;
		expect((await runNode(ctx.emu, getApps, { token })).error).toBeUndefined();
		expect(sent(again)).toEqual(['bearer 200']);
		// A new n8n process finds out again.
		tokenForms.clear();
		const fresh = ctx.emu.requests.length;
		await runNode(ctx.emu, getApps, { token });
		expect(sent(fresh)).toEqual(['basicUsername 401', 'bearer 200']);
	});

	it('refused in every form: one error naming each form and Send Token As, two requests', async () => {
		const run = await runNode(ctx.emu, getApps, { token: 'not-a-token-of-this-service' });
		expect(run.error?.httpCode).toBe('401');
		expect(run.error?.description).toMatch(
			/sent as Basic username \(token \+ empty password\), then as Bearer \(401\).*"Send Token As" in the Albato Solutions API credential/,
		);
		expect(sent()).toEqual(['basicUsername 401', 'bearer 401']);
	});

	it('a form found out and later refused: the next call finds the form out again', async () => {
		const token = await permanentToken('p-1');
		ctx.emu.setVariants({ strictAuth: 'noBasicUsername' });
		expect((await runNode(ctx.emu, getApps, { token })).error).toBeUndefined();
		ctx.emu.setVariants({ strictAuth: 'noBearerPermanent' });
		const from = ctx.emu.requests.length;
		expect((await runNode(ctx.emu, getApps, { token })).error?.httpCode).toBe('401');
		expect((await runNode(ctx.emu, getApps, { token })).error).toBeUndefined();
		expect(sent(from)).toEqual(['bearer 401', 'basicUsername 200']);
	});

	it('what a chosen form sent teaches Auto nothing: switched to Auto, Basic username first', async () => {
		const token = await permanentToken('p-1');
		expect(
			(await runNode(ctx.emu, getApps, { token, headerForm: 'bearer' })).error,
		).toBeUndefined();
		const from = ctx.emu.requests.length;
		expect((await runNode(ctx.emu, getApps, { token })).error).toBeUndefined();
		expect(sent(from)).toEqual(['basicUsername 200']);
	});

	it('once the form is found out, the calls go at once (only the finding out holds them)', async () => {
		const token = await permanentToken('p-1');
		expect((await runNode(ctx.emu, getApps, { token })).error).toBeUndefined();
		ctx.emu.setRateLimit({ maxConcurrent: 1000, retryAfterSeconds: 0, serviceMs: 40 });
		const inputItems = Array.from({ length: 8 }, () => ({}));
		expect((await runNode(ctx.emu, getApps, { token, inputItems })).error).toBeUndefined();
		expect(ctx.emu.rateLimit()?.peak).toBeGreaterThan(1);
	});

	it('the credential test tries the forms Auto tries: passes where the first is refused', async () => {
		const token = await permanentToken('p-1');
		const data = { baseUrl: ctx.emu.baseUrl, accessToken: token };
		ctx.emu.setVariants({ strictAuth: 'noBasicUsername' });
		const result = await testCredential(new AlbatoSolutionsApi(), data);
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/as Bearer \(on Auto, after a 401 as Basic Username/);
		expect(sent()).toEqual(['basicUsername 401', 'bearer 200']);
	});
});

describe('the Partner API credential', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));
	const asC1 = (credential = partnerCredential(ctx.emu)) =>
		runPartner(ctx.emu, listInstallations, { inputItems: [{ customer: 'c-1' }], credential });

	it('Auto: the master token as Basic username first', async () => {
		const from = ctx.emu.requests.length;
		expect((await asC1()).error).toBeUndefined();
		expect(sent(from)).toEqual(['basicUsername 200', 'bearer 200']);
	});

	it('Auto, a service that takes only Basic <token>: once more as Basic token, then that from the start', async () => {
		ctx.emu.partner.set({ acceptStyles: 'raw' });
		const from = ctx.emu.requests.length;
		expect((await asC1()).error).toBeUndefined();
		expect(sent(from)).toEqual(['basicUsername 401', 'basicRaw 200', 'bearer 200']);
		tokenCache.clearEndUserTokenCache();
		const again = ctx.emu.requests.length;
		expect((await asC1()).error).toBeUndefined();
		expect(sent(again)).toEqual(['basicRaw 200', 'bearer 200']);
	});

	it('a credential saved with Basic Token keeps sending it, and only it', async () => {
		ctx.emu.partner.set({ acceptStyles: 'usernamePassword' });
		const from = ctx.emu.requests.length;
		const run = await asC1(partnerCredential(ctx.emu, { headerForm: 'basicRaw' }));
		expect(sent(from)).toEqual(['basicRaw 401']);
		expect(run.error?.description).toMatch(/Send Master Token As/);
	});

	it('an unknown master token: one error naming each form tried, no loop', async () => {
		const from = ctx.emu.requests.length;
		const run = await asC1(partnerCredential(ctx.emu, { masterToken: 'wrong-master-token-xyz' }));
		expect(run.error?.description).toMatch(
			/sent as Basic username \(token \+ empty password\), then as Basic token \(Basic <token>\) \(401\).*"Send Master Token As"/,
		);
		expect(run.error?.description).toMatch(
			/"Send Master Token As" in the Albato Partner API credential "Partner partner-credential-1"/,
		);
		expect(sent(from)).toEqual(['basicUsername 401', 'basicRaw 401']);
	});
});

describe('Solution → Check Connection says how each token was accepted', () => {
	const check: INodeParameters = { resource: 'solution', operation: 'checkConnection' };

	it('an Access Token found out as Bearer', async () => {
		ctx.emu.setVariants({ strictAuth: 'noBasicUsername' });
		const token = await permanentToken('p-1');
		const run = await runNode(ctx.emu, check, { token });
		expect(run.json[0]).toEqual({
			connected: true,
			solutions: expect.any(Number),
			accessToken: 'Bearer',
			accessTokenKind: 'permanent token',
		});
		expect(run.serialized).not.toContain(token);
	});

	it('partner mode: the master token found out as Basic token, the session token as Bearer', async () => {
		await addUsers(ctx.emu, ['c-1']);
		ctx.emu.partner.set({ acceptStyles: 'raw' });
		const run = await runPartner(ctx.emu, check, { inputItems: [{ customer: 'c-1' }] });
		expect(run.json[0]).toMatchObject({
			connected: true,
			masterToken: 'Basic token (Basic <token>)',
			endUserToken: 'Bearer',
			endUserTokenKind: 'session token (JWT)',
		});
	});
	it('partner mode: a permanent end-user token found out as Basic username', async () => {
		ctx.emu.setVariants({ partnerTokens: 'permanent' });
		await addUsers(ctx.emu, ['c-1']);
		const run = await runPartner(ctx.emu, check, { inputItems: [{ customer: 'c-1' }] });
		expect(run.json[0]).toMatchObject({
			endUserToken: 'Basic username (token + empty password)',
			endUserTokenKind: 'permanent token',
		});
	});

	it('partner mode: a chosen form of the master token, named as chosen', async () => {
		await addUsers(ctx.emu, ['c-1']);
		ctx.emu.partner.set({ acceptStyles: 'raw' });
		const credential = partnerCredential(ctx.emu, { headerForm: 'basicRaw' });
		const run = await runPartner(ctx.emu, check, { inputItems: [{ customer: 'c-1' }], credential });
		expect(run.json[0]).toMatchObject({ masterToken: 'Basic token (Basic <token>)' });
	});
});

describe('permanent end-user tokens in partner mode', () => {
	const customers = Array.from({ length: 20 }, (_, i) => `f-${i}`);
	beforeEach(async () => {
		ctx.emu.setVariants({ partnerTokens: 'permanent' });
		await addUsers(ctx.emu, customers);
	});
	const fleet = () =>
		runPartner(ctx.emu, listInstallations, {
			inputItems: customers.map((customer) => ({ customer })),
		});

	it('the form is found once for the credential, not once per customer', async () => {
		ctx.emu.setVariants({ strictAuth: 'noBasicUsername' });
		ctx.emu.partner.set({ acceptStyles: 'raw' });
		const from = ctx.emu.requests.length;
		const run = await fleet();
		expect(run.error).toBeUndefined();
		const refused = ctx.emu.requests.slice(from).filter((r) => r.status === 401);
		// One for the master token, one for the first customer's token: no more.
		expect(
			refused.map((r) => `${r.auth} ${r.path.startsWith('/wl/') ? 'master' : 'user'}`),
		).toEqual(['basicUsername master', 'basicUsername user']);
		expect(tokenCalls(run)).toBe(customers.length + 1);
	});

	it("an end user's token refused in every form: one error naming Send End-User Tokens As", async () => {
		ctx.emu.faults.add({ path: '/solution/installation', status: 401, times: 10 });
		const run = await runPartner(ctx.emu, listInstallations, { inputItems: [{ customer: 'f-0' }] });
		expect(run.error?.description).toMatch(
			/then as Bearer \(401\)\. Check the token, or set "Send End-User Tokens As" in the Albato Partner API credential "Partner partner-credential-1"/,
		);
	});

	it('sent as Basic username where Bearer <permanent token> is refused', async () => {
		ctx.emu.setVariants({ strictAuth: 'noBearerPermanent' });
		const from = ctx.emu.requests.length;
		const run = await fleet();
		expect(run.error).toBeUndefined();
		expect(ctx.emu.requests.slice(from).filter((r) => r.status === 401)).toEqual([]);
	});
});
