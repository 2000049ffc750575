/**
 * The partner session's token call under failures: shared by waiting items and executions, retried
 * like a read, and permanent tokens kept like session tokens.
 */
import type { INodeParameters } from 'n8n-workflow';

import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { runWorkflow } from '../../harness';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import {
	addUsers,
	partnerCredential,
	runPartner,
	TOKEN_PATH,
	tokenCalls,
	usePartnerEmulator,
} from '../support/partnerSetup';
import { byId } from '../support/setup';

const ctx = usePartnerEmulator();

const getMany: INodeParameters = { resource: 'installation', operation: 'getAll', returnAll: true };
const items = (...customers: string[]) => customers.map((customer) => ({ customer }));

describe('a failed token call with many items waiting', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));

	it('a persistent 500 on the token call: the waiting items do not each send their own token call at once', async () => {
		ctx.emu.faults.add({ path: TOKEN_PATH, status: 500, delayMs: 100, times: 100 });
		const run = await runPartner(
			ctx.emu,
			{ ...getMany, requestOptions: { concurrency: 10 } },
			{ inputItems: items(...Array(10).fill('c-1')), continueOnFail: true },
		);
		expect(run.json).toHaveLength(10);
		expect(run.json.every((json) => json.httpCode === '500')).toBe(true);
		// One call, and one shared retry by the items that waited on it (not one per item).
		expect(tokenCalls(run)).toBe(2);
		expect(run.calls).toHaveLength(2);
	});

	it('a transient failure: the waiting items share one more token call and all succeed', async () => {
		ctx.emu.faults.add({ path: TOKEN_PATH, status: 500, delayMs: 100 });
		const run = await runPartner(
			ctx.emu,
			{ ...getMany, requestOptions: { concurrency: 10 } },
			{ inputItems: items(...Array(10).fill('c-1')), continueOnFail: true },
		);
		expect(run.json).toEqual([
			{ error: 'Emulated fault: 500', message: expect.any(String), httpCode: '500' },
		]); // the item that asked first
		expect(tokenCalls(run)).toBe(2);
		expect(run.calls.filter((call) => call === 'GET /solution/installation')).toHaveLength(9);
	});
});

describe('a failed token call shared by two executions', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));

	it("each execution's error names its own item", async () => {
		ctx.emu.faults.add({ path: TOKEN_PATH, status: 500, delayMs: 200, times: 10 });
		const a = runPartner(
			ctx.emu,
			{ ...getMany, requestOptions: { concurrency: 3 } },
			{ inputItems: items('c-1', 'c-1', 'c-1') },
		);
		await new Promise((resolve) => setTimeout(resolve, 50));
		// B has one item; it waits on A's token call and then on the retry A's item 1 starts.
		const b = await runPartner(ctx.emu, getMany, { inputItems: items('c-1') });
		await a;
		expect(b.error?.httpCode).toBe('500');
		expect((b.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
	});
});

describe('a lost token call is not a lost install', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));

	it('install refused with 401, the fresh token call times out: reported as the token call, no lost-answer search', async () => {
		expect(
			(await runPartner(ctx.emu, getMany, { inputItems: items('c-1') })).error,
		).toBeUndefined();
		const installations = ctx.emu.state.installations.size;
		ctx.emu.faults.add({ method: 'POST', path: '/solution/101/installation', status: 401 });
		ctx.emu.faults.add({ path: TOKEN_PATH, delayMs: 600, times: 10 });
		const run = await runPartner(
			ctx.emu,
			{
				resource: 'installation',
				operation: 'create',
				solutionId: byId('id', 101),
				title: 'T',
				connectionSettingsMode: 'json',
				credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
				templateIds: [1011],
				requestOptions: { timeout: 0.2 },
			},
			{ inputItems: items('c-1') },
		);
		// Was: "The outcome of installing "T" is unknown", after 5 s of looking for it in the list.
		expect(run.error?.message).toBe('The service did not answer within 200 ms');
		expect(run.error?.description).toMatch(/^POST \/wl\/acme-saas\/get-user-session-token/);
		expect(run.calls.filter((call) => call === 'GET /solution/installation')).toHaveLength(1);
		expect(ctx.emu.state.installations.size).toBe(installations);
	});
});

describe('the token call is retried like a read: it changes nothing', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));

	it.each([
		['429', { status: 429, retryAfterSeconds: 0 }],
		['503', { status: 503 }],
		['a reset connection', { reset: 'before' as const }],
	])('%s on the token call, then the call succeeds', async (_name, rule) => {
		ctx.emu.faults.add({ path: TOKEN_PATH, ...rule });
		const run = await runPartner(ctx.emu, getMany, { inputItems: items('c-1') });
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([
			'POST /wl/acme-saas/get-user-session-token',
			'POST /wl/acme-saas/get-user-session-token',
			'GET /solution/installation',
		]);
	});

	it('add-user (a POST that creates) is still never repeated', async () => {
		ctx.emu.faults.add({ path: /add-user$/, status: 503 });
		const run = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'create' },
			{ inputItems: items('c-2') },
		);
		expect(run.error?.httpCode).toBe('503');
		expect(run.calls).toEqual(['POST /wl/acme-saas/add-user']);
	});
});

describe('a token without expiry is kept for the execution, not only for one node', () => {
	// End User → Create, then Installation → Get Many for the same customer, in one execution.
	const onboard = async () => {
		const before = ctx.emu.requests.length;
		const result = await runWorkflow({
			nodeTypes: [new AlbatoSolutions()],
			nodes: [
				{
					name: 'Add',
					type: 'albatoSolutions',
					parameters: {
						authentication: 'partnerApi',
						endUserId: '={{ $json.customer }}',
						resource: 'endUser',
						operation: 'create',
						options: { ifExists: 'useExisting' },
					},
					credentials: { albatoPartnerApi: { id: 'p1', name: 'P1' } },
				},
				{
					name: 'List',
					type: 'albatoSolutions',
					parameters: {
						authentication: 'partnerApi',
						endUserId: '={{ $json.endUserId }}',
						resource: 'installation',
						operation: 'getAll',
						returnAll: true,
					},
					credentials: { albatoPartnerApi: { id: 'p1', name: 'P1' } },
				},
			],
			inputItems: [{ customer: 'perm-1' }],
			credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
		});
		expect(result.error('Add') ?? result.error('List')).toBeUndefined();
		return ctx.emu.requests.slice(before).map((entry) => `${entry.method} ${entry.path}`);
	};

	it('permanent tokens: the token add-user answered serves the next node and the next execution', async () => {
		ctx.emu.setVariants({ partnerTokens: 'permanent' });
		// No token call in between: the profile read (language, offset) uses add-user's token too.
		expect(await onboard()).toEqual([
			'POST /wl/acme-saas/add-user',
			'POST /wl/acme-saas/get-user-profile',
			'GET /solution/installation',
		]);
		expect(await onboard()).toEqual([
			'POST /wl/acme-saas/add-user',
			// An existing user's profile fills Create's output.
			'POST /wl/acme-saas/get-user-profile',
			'GET /solution/installation',
		]);
	});
});
