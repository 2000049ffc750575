/**
 * Which minted token a partner-mode call carries: one per end user and per credential (its id and
 * its data), a refused permanent token minted again, a token another execution minted kept for this
 * one, a token add-user handed out reused, and the expiry End User → Get Token reports. Through
 * n8n-core against the emulator: the request log's `user` is whom the service saw.
 */
import type { INodeParameters } from 'n8n-workflow';

import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { loadOptionsContext } from '../../harness';
import {
	addUsers,
	partnerCredential,
	type PartnerRunOptions,
	runPartner,
	TOKEN_PATH,
	tokenCalls,
	usePartnerEmulator,
} from '../support/partnerSetup';

const ctx = usePartnerEmulator();

const getMany: INodeParameters = { resource: 'installation', operation: 'getAll', returnAll: true };
const items = (...customers: string[]) => customers.map((customer) => ({ customer }));
const LIST = '/solution/installation';
/** Whom the service saw on each Get Many, in order. */
/** As end user c-1 unless told otherwise. */
const asC1 = async (parameters: INodeParameters, options: PartnerRunOptions = {}) =>
	await runPartner(ctx.emu, parameters, { inputItems: items('c-1'), ...options });
const listedAs = () =>
	ctx.emu.requests.filter((entry) => entry.path === LIST).map((entry) => entry.user);

describe('one token per end user', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1', 'c-2']));

	it('two end users in one run: each call acts as its own end user', async () => {
		const run = await runPartner(
			ctx.emu,
			{ ...getMany, requestOptions: { concurrency: 1 } },
			{ inputItems: items('c-1', 'c-2', 'c-1') },
		);
		expect(run.error).toBeUndefined();
		expect(listedAs()).toEqual(['acme-saas:c-1', 'acme-saas:c-2', 'acme-saas:c-1']);
		expect(
			ctx.emu.requests.filter((entry) => TOKEN_PATH.test(entry.path)).map((entry) => entry.body),
		).toEqual([{ id: 'c-1' }, { id: 'c-2' }]);
	});
});

describe('one token per credential', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));

	it('the same credential in the next execution: the cached token, no token call', async () => {
		await asC1(getMany);
		const again = await asC1(getMany);
		expect(again.calls).toEqual(['GET /solution/installation']);
	});

	it('another credential id with the same data: its own token call', async () => {
		await asC1(getMany, { credentialId: 'partner-a' });
		const other = await asC1(getMany, { credentialId: 'partner-b' });
		expect(other.calls).toEqual([
			'POST /wl/acme-saas/get-user-session-token',
			'GET /solution/installation',
		]);
	});

	it('the same credential id after an edit (Send Master Token As): its own token call', async () => {
		await asC1(getMany, {
			credential: partnerCredential(ctx.emu, { headerForm: 'basicRaw' }),
		});
		const edited = await asC1(getMany, {
			credential: partnerCredential(ctx.emu, { headerForm: 'basicUsername' }),
		});
		expect(tokenCalls(edited)).toBe(1);
		expect(listedAs()).toEqual(['acme-saas:c-1', 'acme-saas:c-1']);
	});
});

describe('a refused token', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));

	it('a permanent token refused with 401: dropped, minted again, the call sent once more', async () => {
		ctx.emu.setVariants({ partnerTokens: 'permanent' });
		ctx.emu.faults.add({ method: 'GET', path: LIST, status: 401 });
		// Pinned: on Auto the 401 would first be read as the wrong form (tested in tokenForms).
		const credential = partnerCredential(ctx.emu, { endUserHeaderForm: 'bearer' });
		const run = await asC1(getMany, { credential });
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([
			'POST /wl/acme-saas/get-user-session-token',
			'GET /solution/installation',
			'POST /wl/acme-saas/get-user-session-token',
			'GET /solution/installation',
		]);
	});

	it("a 500 on the end user's call is not a refused token: no new token, no second call", async () => {
		ctx.emu.faults.add({ method: 'GET', path: LIST, status: 500 });
		const run = await asC1({ ...getMany, requestOptions: { maxRetries: 0 } });
		expect(run.error?.httpCode).toBe('500');
		expect(run.calls).toEqual([
			'POST /wl/acme-saas/get-user-session-token',
			'GET /solution/installation',
		]);
	});
});

describe('a permanent token minted by another execution', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));

	it('the execution that waited on it keeps it for its next items', async () => {
		ctx.emu.setVariants({ partnerTokens: 'permanent' });
		ctx.emu.faults.add({ path: TOKEN_PATH, delayMs: 300 });
		const first = asC1(getMany);
		await new Promise((resolve) => setTimeout(resolve, 100));
		const second = await runPartner(
			ctx.emu,
			{ ...getMany, requestOptions: { concurrency: 1 } },
			{ inputItems: items('c-1', 'c-1') },
		);
		expect((await first).error).toBeUndefined();
		expect(second.error).toBeUndefined();
		// One token call for all three items, by the first execution.
		expect(ctx.emu.requests.map((entry) => `${entry.method} ${entry.path}`)).toEqual([
			'POST /wl/acme-saas/get-user-session-token',
			'GET /solution/installation',
			'GET /solution/installation',
			'GET /solution/installation',
		]);
	});
});

describe('a session token handed out by add-user', () => {
	it('serves the next execution: no token call', async () => {
		ctx.emu.setVariants({ partnerTokens: 'session' });
		const created = await asC1({ resource: 'endUser', operation: 'create' });
		// The profile read (language, offset) uses add-user's token: no token call.
		expect(created.calls).toEqual([
			'POST /wl/acme-saas/add-user',
			'POST /wl/acme-saas/get-user-profile',
		]);
		const listed = await asC1(getMany);
		expect(listed.calls).toEqual(['GET /solution/installation']);
		expect(listedAs()).toEqual(['acme-saas:c-1']);
	});
});

describe('End User → Get Token: when the token expires', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));
	const getToken: INodeParameters = { resource: 'endUser', operation: 'getToken' };

	it('a session token: its expiry, also when it comes from the cache', async () => {
		ctx.emu.setVariants({ partnerTokens: 'session' });
		const before = Math.floor(Date.now() / 1000);
		const minted = await asC1(getToken);
		const after = Math.floor(Date.now() / 1000);
		const validUntil = Date.parse(String(minted.json[0].tokenValidUntil)) / 1000;
		expect(validUntil).toBeGreaterThanOrEqual(before + 3600);
		expect(validUntil).toBeLessThanOrEqual(after + 3600);
		const cached = await asC1(getToken);
		expect(cached.calls).toEqual([]);
		expect(cached.json).toEqual(minted.json);
	});

	it('a permanent token: none', async () => {
		ctx.emu.setVariants({ partnerTokens: 'permanent' });
		const run = await asC1(getToken);
		expect(run.json).toEqual([{ endUserId: 'c-1', hasToken: true, tokenValidUntil: null }]);
	});
});

describe('a token from the cache is hidden too', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));

	it("a service that quotes the Authorization header of the next execution's call", async () => {
		await asC1(getMany);
		ctx.emu.faults.add({ method: 'GET', path: LIST, status: 400, echoAuthorization: true });
		const run = await asC1(getMany);
		expect(run.calls).toEqual(['GET /solution/installation']);
		expect(run.error?.message).toMatch(/\[redacted\]/);
		expect(run.serialized).not.toMatch(/eyJhbGci[\w-]*\.[\w-]+/);
	});

	it('the fresh token minted after a 401, quoted by the service, is hidden too', async () => {
		// Session tokens; the 401 comes a second later: the fresh one is another JWT (its own exp).
		ctx.emu.setVariants({ partnerTokens: 'session' });
		ctx.emu.faults.add({ method: 'GET', path: LIST, status: 401, delayMs: 1100 });
		ctx.emu.faults.add({ method: 'GET', path: LIST, status: 400, echoAuthorization: true });
		const run = await asC1(getMany);
		const token = 'POST /wl/acme-saas/get-user-session-token';
		expect(run.calls).toEqual([token, `GET ${LIST}`, token, `GET ${LIST}`]);
		expect(run.error?.message).toMatch(
			/^Emulated fault: 400 \(Authorization: Bearer (\[redacted\])+\)$/,
		);
	});
});

describe('the token call answered without a token', () => {
	it('names the call and the end user, word for word', async () => {
		await addUsers(ctx.emu, ['c-1']);
		ctx.emu.faults.add({ path: TOKEN_PATH, emptyBody: true });
		const run = await asC1(getMany);
		expect(run.error?.message).toBe('The service answered the token request without a token');
		expect(run.error?.description).toBe(
			'POST /wl/acme-saas/get-user-session-token for End User ID "c-1" returned neither sessionToken, token nor permanentToken. Check that the end user exists (End User → Create) and your partner settings.',
		);
	});
});

describe('a picker in partner mode without End User ID', () => {
	// The field left at its default (empty) is said to be empty.
	it('says the field is empty, sends nothing', async () => {
		const node = new AlbatoSolutions();
		const context = loadOptionsContext({
			nodeType: node,
			parameters: { authentication: 'partnerApi', resource: 'installation', operation: 'create' },
			credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
		});
		const error = (await node.methods.listSearch.searchSolutions
			.call(context)
			.catch((e: unknown) => e)) as Error;
		expect(error.message).toBe('End User ID is empty');
		expect(ctx.emu.requests).toEqual([]);
	});
});
