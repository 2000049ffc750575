/**
 * End User → Create: add-user with the partner's id, the token opt-in, an existing user, the
 * credential needed.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import {
	ADD_USER_PATH,
	addUsers,
	runPartner,
	TOKEN_PATH,
	usePartnerEmulator,
} from '../../support/partnerSetup';
import { byId } from '../../support/setup';

const ctx = usePartnerEmulator();

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

describe('End User → Create', () => {
	it("creates the end user with the partner's id; the output carries no token", async () => {
		const run = await runPartner(
			ctx.emu,
			{
				resource: 'endUser',
				operation: 'create',
				options: { language: 'en', timezoneOffset: -180 },
			},
			{ inputItems: items('c-1', 'c-2') },
		);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(['POST /wl/acme-saas/add-user', 'POST /wl/acme-saas/add-user']);
		expect(ctx.emu.requests[0].body).toEqual({ id: 'c-1', timezoneOffset: -180, language: 'en' });
		expect(run.json.map((j) => j.endUserId)).toEqual(['c-1', 'c-2']);
		expect(run.json[0]).toMatchObject({
			albatoUserId: 70001,
			email: expect.stringContaining('@'),
			tokenValidUntil: expect.stringMatching(/^\d{4}-/),
		});
		for (const json of run.json) {
			expect(Object.keys(json)).not.toEqual(expect.arrayContaining(['token']));
			expect(json).not.toHaveProperty('sessionToken');
			expect(json).not.toHaveProperty('permanentToken');
		}
		expect(run.serialized).not.toMatch(/eyJhbGci|perm_/);
		expect([...ctx.emu.state.endUsers.values()].map((u) => u.sub)).toEqual([
			'acme-saas:c-1',
			'acme-saas:c-2',
		]);
	});

	it('shows the token only with the opt-in option', async () => {
		const run = await runPartner(ctx.emu, {
			resource: 'endUser',
			operation: 'create',
			options: { includeToken: true },
		});
		expect(run.json[0].token).toMatch(/^eyJ/);
		expect(run.json[0].tokenValidUntil).toMatch(/^\d{4}-/);
	});

	it('a customer onboarded in one execution: add-user, install, start, with no token call', async () => {
		// add-user already answers a token: the node keeps it for the next nodes.
		const create = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'create' },
			{ inputItems: items('new-1') },
		);
		const installed = await runPartner(ctx.emu, install('Lead sync'), {
			inputItems: items('new-1'),
		});
		expect(installed.error).toBeUndefined();
		const start = await runPartner(
			ctx.emu,
			{
				resource: 'installation',
				operation: 'start',
				installationId: byId('id', String(installed.json[0].id)),
			},
			{ inputItems: items('new-1') },
		);
		expect(start.json[0].status).toBe(1);
		const all = [...create.calls, ...installed.calls, ...start.calls];
		expect(all.filter((call) => TOKEN_PATH.test(call.split(' ')[1]))).toEqual([]);
		expect(all.filter((call) => ADD_USER_PATH.test(call.split(' ')[1]))).toHaveLength(1);
		expect(ctx.emu.state.installations.get(Number(installed.json[0].id))?.userId).toBe(
			'acme-saas:new-1',
		);
	});

	it('an existing user: the service\'s error by default, or the existing user with "Continue With the Existing User"', async () => {
		await addUsers(ctx.emu, ['c-1']);
		const failed = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'create' },
			{ inputItems: items('c-1') },
		);
		expect(failed.error?.message).toBe('id: A user with id "c-1" already exists');
		expect(failed.calls).toEqual(['POST /wl/acme-saas/add-user']);
		const run = await runPartner(
			ctx.emu,
			{
				resource: 'endUser',
				operation: 'create',
				options: { ifExists: 'useExisting' },
				requestOptions: { concurrency: 1 },
			},
			{ inputItems: items('c-1', 'c-2') },
		);
		expect(run.error).toBeUndefined();
		expect(run.json.map((json) => [json.endUserId, json.created])).toEqual([
			['c-1', false],
			['c-2', true],
		]);
		expect(run.calls).toEqual([
			'POST /wl/acme-saas/add-user',
			'POST /wl/acme-saas/get-user-session-token',
			'POST /wl/acme-saas/get-user-profile',
			'POST /wl/acme-saas/add-user',
			// add-user sends no language or offset: read once, as the repeat reads them.
			'POST /wl/acme-saas/get-user-profile',
		]);
		expect(run.serialized).not.toMatch(/eyJhbGci|perm_/);
	});

	it('a new user and a repeat delivery give the same fields with the same values', async () => {
		const create = async () =>
			await runPartner(
				ctx.emu,
				{ resource: 'endUser', operation: 'create', options: { ifExists: 'useExisting' } },
				{ inputItems: items('c-9') },
			);
		const profile = (json: IDataObject) => {
			const { created, tokenValidUntil, ...rest } = json;
			return [typeof created, typeof tokenValidUntil, rest];
		};
		const first = await create();
		const repeat = await create();
		expect(first.json[0]).toMatchObject({ created: true, language: 'en', timezoneOffset: 0 });
		expect(repeat.json[0].created).toBe(false);
		expect(profile(first.json[0])).toEqual(profile(repeat.json[0]));
	});

	it('a duplicate refused with a 200 and `success: false` is handled as a 4xx refusal is', async () => {
		await addUsers(ctx.emu, ['c-1']);
		ctx.emu.faults.add({ path: '/wl/acme-saas/add-user', successFalse: true, times: 2 });
		const failed = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'create' },
			{ inputItems: items('c-1') },
		);
		expect(failed.error?.httpCode).toBe('200');
		expect(failed.error?.description).toMatch(
			/set Options → If the User Exists to "Continue With the Existing User"/,
		);
		const run = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'create', options: { ifExists: 'useExisting' } },
			{ inputItems: items('c-1') },
		);
		expect(run.error).toBeUndefined();
		expect(run.json.map((json) => [json.endUserId, json.created])).toEqual([['c-1', false]]);
	});

	it('"Continue With the Existing User" still fails when the user cannot be found either', async () => {
		ctx.emu.faults.add({ path: '/wl/acme-saas/add-user', status: 422 });
		const run = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'create', options: { ifExists: 'useExisting' } },
			{ inputItems: items('ghost') },
		);
		expect(run.error?.httpCode).toBe('422');
		expect(run.calls).toEqual([
			'POST /wl/acme-saas/add-user',
			'POST /wl/acme-saas/get-user-session-token',
		]);
	});

	it('needs the Partner API credential', async () => {
		const { runNode } = await import('../../support/setup');
		const run = await runNode(ctx.emu, { resource: 'endUser', operation: 'create' });
		expect(run.error?.message).toBe('End User needs the Albato Partner API credential');
		expect(run.calls).toEqual([]);
	});
});
