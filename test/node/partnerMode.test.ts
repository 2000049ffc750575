/**
 * Partner mode across operations: end-user tokens minted once and reused while valid, validation
 * before any request, the master token styles.
 */
import type { INodeParameters } from 'n8n-workflow';

import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import {
	addUsers,
	partnerCredential,
	masterForm,
	TOKEN_PATH,
	tokenCalls,
	runPartner,
	usePartnerEmulator,
} from '../support/partnerSetup';
import { byId } from '../support/setup';

const ctx = usePartnerEmulator();

const getMany: INodeParameters = { resource: 'installation', operation: 'getAll', returnAll: true };
const install = (title: string): INodeParameters => ({
	resource: 'installation',
	operation: 'create',
	solutionId: byId('id', 101),
	title,
	connectionSettingsMode: 'json',
	credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
	templateIds: [1011],
});
const items = (...customers: string[]) => customers.map((customer) => ({ customer }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('tokens: minted once, reused while valid', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1', 'c-2', 'c-3', 'c-4', 'c-5']));

	it('once per user per execution, and reused by the next execution', async () => {
		const first = await runPartner(ctx.emu, getMany, {
			inputItems: items('c-1', 'c-2', 'c-1', 'c-2', 'c-1'),
		});
		expect(first.error).toBeUndefined();
		expect(tokenCalls(first)).toBe(2);
		const second = await runPartner(ctx.emu, getMany, { inputItems: items('c-1', 'c-2', 'c-3') });
		expect(tokenCalls(second)).toBe(1); // only c-3 is new
		// Each call acted as its own end user (items run 8 at once: the order of calls may vary).
		const users = ctx.emu.requests
			.filter((r) => r.path === '/solution/installation')
			.map((r) => r.user);
		expect(users.sort()).toEqual([
			'acme-saas:c-1',
			'acme-saas:c-1',
			'acme-saas:c-1',
			'acme-saas:c-1',
			'acme-saas:c-2',
			'acme-saas:c-2',
			'acme-saas:c-2',
			'acme-saas:c-3',
		]);
	});

	it('20 items for 5 users in flight at once: 5 token calls', async () => {
		// Slow token answers keep every item waiting at the same time.
		ctx.emu.faults.add({ path: TOKEN_PATH, delayMs: 150, times: 20 });
		const customers = Array.from({ length: 20 }, (_, i) => `c-${(i % 5) + 1}`);
		const run = await runPartner(
			ctx.emu,
			{ ...getMany, requestOptions: { concurrency: 20 } },
			{ inputItems: items(...customers) },
		);
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(0); // new users have no installations…
		expect(run.calls.filter((c) => c === 'GET /solution/installation')).toHaveLength(20); // …but all 20 asked
		expect(tokenCalls(run)).toBe(5);
	});

	it('a token without expiry (permanent) serves later executions too: one token call per customer per worker', async () => {
		ctx.emu.setVariants({ partnerTokens: 'permanent' });
		expect(
			tokenCalls(await runPartner(ctx.emu, getMany, { inputItems: items('c-1', 'c-1') })),
		).toBe(1);
		expect(
			tokenCalls(await runPartner(ctx.emu, getMany, { inputItems: items('c-1', 'c-1') })),
		).toBe(0);
	});

	it('a single `token` (a JWT without sessionTokenValidUntil) is kept until its own exp', async () => {
		ctx.emu.setVariants({ partnerTokens: 'token' });
		expect(tokenCalls(await runPartner(ctx.emu, getMany, { inputItems: items('c-1') }))).toBe(1);
		expect(tokenCalls(await runPartner(ctx.emu, getMany, { inputItems: items('c-1') }))).toBe(0);
	});

	it('session tokens only: the same rules', async () => {
		ctx.emu.setVariants({ partnerTokens: 'session', bare: true, stringIds: true });
		const run = await runPartner(ctx.emu, getMany, { inputItems: items('c-1', 'c-1') });
		expect(run.error).toBeUndefined();
		expect(tokenCalls(run)).toBe(1);
	});

	it.each([
		['"true"', 'string'],
		['1', 'number'],
	] as const)(
		'an envelope whose success flag is %s: the token is read, and kept as under true',
		async (_name, successFlag) => {
			ctx.emu.setVariants({ successFlag });
			const run = await runPartner(ctx.emu, getMany, { inputItems: items('c-1', 'c-1') });
			expect(run.error).toBeUndefined();
			expect(tokenCalls(run)).toBe(1);
			expect(tokenCalls(await runPartner(ctx.emu, getMany, { inputItems: items('c-1') }))).toBe(0);
		},
	);

	it('a soon-expiring token is refreshed before use', async () => {
		// A 2 s token (1–2 s left when minted, by whole seconds) is refreshed once half its life is
		// gone.
		ctx.emu.partner.set({ sessionTokenSeconds: 2 });
		expect(tokenCalls(await runPartner(ctx.emu, getMany, { inputItems: items('c-1') }))).toBe(1);
		await sleep(1100);
		const later = await runPartner(ctx.emu, getMany, { inputItems: items('c-1') });
		expect(later.error).toBeUndefined();
		expect(tokenCalls(later)).toBe(1);
		expect(later.calls).toEqual([
			'POST /wl/acme-saas/get-user-session-token',
			'GET /solution/installation',
		]);
	});

	it("an already expired token: refreshed once on the 401, then the service's error", async () => {
		ctx.emu.partner.set({ sessionTokenSeconds: -10 });
		const run = await runPartner(ctx.emu, getMany, { inputItems: items('c-1') });
		expect(run.calls).toEqual([
			'POST /wl/acme-saas/get-user-session-token',
			'GET /solution/installation',
			'POST /wl/acme-saas/get-user-session-token',
			'GET /solution/installation',
		]);
		expect(run.error?.httpCode).toBe('401');
		expect(run.error?.description).toMatch(/Albato Partner API credential/);
	});

	it('a 401 triggers exactly one refresh, then the call succeeds', async () => {
		await runPartner(ctx.emu, getMany, { inputItems: items('c-1') });
		ctx.emu.faults.add({ method: 'GET', path: '/solution/installation', status: 401 });
		const run = await runPartner(
			ctx.emu,
			{ ...getMany, requestOptions: { concurrency: 1 } },
			{ inputItems: items('c-1', 'c-1') },
		);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([
			'GET /solution/installation', // cached token: 401
			'POST /wl/acme-saas/get-user-session-token',
			'GET /solution/installation',
			'GET /solution/installation', // the second item uses the fresh token
		]);
	});

	it('a 401 on a POST (install) is retried once with a fresh token: nothing was applied', async () => {
		ctx.emu.faults.add({ method: 'POST', path: '/solution/101/installation', status: 401 });
		const run = await runPartner(ctx.emu, install('After 401'), { inputItems: items('c-1') });
		expect(run.error).toBeUndefined();
		expect(run.calls.filter((c) => c === 'POST /solution/101/installation')).toHaveLength(2);
		expect(tokenCalls(run)).toBe(2);
		expect(
			[...ctx.emu.state.installations.values()].filter((i) => i.title === 'After 401'),
		).toHaveLength(1);
	});

	it('two credentials never share a token, even with the same data; an edited credential mints anew', async () => {
		expect(
			tokenCalls(
				await runPartner(ctx.emu, getMany, { credentialId: 'A', inputItems: items('c-1') }),
			),
		).toBe(1);
		expect(
			tokenCalls(
				await runPartner(ctx.emu, getMany, { credentialId: 'B', inputItems: items('c-1') }),
			),
		).toBe(1);
		expect(
			tokenCalls(
				await runPartner(ctx.emu, getMany, { credentialId: 'A', inputItems: items('c-1') }),
			),
		).toBe(0);
		const edited = partnerCredential(ctx.emu, { headerForm: 'basicUsername' });
		expect(
			tokenCalls(
				await runPartner(ctx.emu, getMany, {
					credentialId: 'A',
					credential: edited,
					inputItems: items('c-1'),
				}),
			),
		).toBe(1);
	});
});

describe('validation before any request', () => {
	it.each([
		['empty', '', /End User ID is empty/],
		['too long', 'x'.repeat(256), /at most 255/],
		['a line break', 'a\nb', /control characters/],
	])('End User ID %s: NodeOperationError naming the item', async (_name, customer, message) => {
		const run = await runPartner(ctx.emu, getMany, { inputItems: [{ customer }] });
		expect(run.error?.message).toMatch(message);
		expect((run.error as { context?: { itemIndex?: number } })?.context?.itemIndex).toBe(0);
		expect(run.calls).toEqual([]);
	});

	it('End User ID bad in item 2 only: under continueOnFail items 1 and 3 run, item 2 fails without a request', async () => {
		await addUsers(ctx.emu, ['c-1']);
		const run = await runPartner(ctx.emu, getMany, {
			inputItems: items('c-1', ' ', 'c-1'),
			continueOnFail: true,
		});
		expect(run.json).toEqual([{ error: 'End User ID is empty', message: expect.any(String) }]);
		expect(tokenCalls(run)).toBe(1);
	});

	it.each([
		[
			'a slash in Partner Name',
			{ partnerName: 'acme/../x' },
			/Partner Name "acme\/..\/x" is not valid/,
		],
		['an empty Partner Name', { partnerName: ' ' }, /Partner Name/],
		[
			'a Partner Name of dots (a path step: the master token would go to /get-user-session-token)',
			{ partnerName: '..' },
			/Partner Name ".." is not valid/,
		],
		['a Partner Name of one dot', { partnerName: '.' }, /Partner Name "." is not valid/],
		['no master token', { masterToken: '' }, /no Master Token/],
		['no http Base URL', { baseUrl: 'ftp://x' }, /Base URL/],
	])('%s: a clear error, no request', async (_name, change, message) => {
		const run = await runPartner(ctx.emu, getMany, {
			credential: partnerCredential(ctx.emu, change),
		});
		expect(run.error?.message).toMatch(message);
		expect(run.calls).toEqual([]);
	});

	it("a wrong master token: the service's 401, with a hint naming the credential", async () => {
		// One form chosen (on Auto both are tried: tokenForms.test.ts).
		const wrong = { masterToken: 'wrong-master-token', headerForm: 'basicRaw' };
		const run = await runPartner(ctx.emu, getMany, {
			credential: partnerCredential(ctx.emu, wrong),
		});
		expect(run.error?.httpCode).toBe('401');
		expect(run.error?.message).toBe('Invalid master token');
		expect(run.error?.description).toMatch(
			/refused the master token. Check Master Token, Partner Name and Send Master Token As in the Albato Partner API credential "Partner partner-credential-1"\./,
		);
		expect(run.calls).toEqual(['POST /wl/acme-saas/get-user-session-token']);
	});
});

describe('the master token styles', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));

	it.each([
		['raw', 'raw', undefined],
		['raw', 'usernamePassword', 401],
		['usernamePassword', 'usernamePassword', undefined],
		['usernamePassword', 'raw', 401],
		['raw', 'any', undefined],
		['usernamePassword', 'any', undefined],
	] as const)('sent as %s, the service accepting %s', async (style, accepts, status) => {
		ctx.emu.partner.set({ acceptStyles: accepts });
		const run = await runPartner(ctx.emu, getMany, {
			credential: partnerCredential(ctx.emu, { headerForm: masterForm(style) }),
			inputItems: items('c-1'),
		});
		expect(run.error?.httpCode).toBe(status === undefined ? undefined : String(status));
	});
});
