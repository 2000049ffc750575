/**
 * End User → Get: the profile through the master token; albatoUserId and endUserId; usage on
 * request.
 */
import { PLANS } from '../../../emulator/fixtures';
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { runNode } from '../../support/setup';
import { callsTo, PROFILE_PATH } from './lifecycleSetup';

const ctx = usePartnerEmulator();
const get = { resource: 'endUser', operation: 'get' };

describe('End User → Get', () => {
	beforeEach(async () => await addUsers(ctx.emu, ['john']));

	it('reads the profile: Albato id as albatoUserId, the partner id as endUserId, plan and transactions left', async () => {
		ctx.emu.setTransactionsUsed('john', 950);
		const run = await runPartner(ctx.emu, get, { inputItems: [{ customer: 'john' }] });
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([`POST /wl/${ctx.emu.partner.name}/get-user-profile`]);
		expect(ctx.emu.requests.at(-1)!.body).toEqual({ id: 'john' });
		expect(ctx.emu.requests.at(-1)!.query).toEqual({});
		const user =
			ctx.emu.state.endUsers.get(`${ctx.emu.partner.name}\u0000john`) ??
			[...ctx.emu.state.endUsers.values()].find((u) => u.id === 'john')!;
		expect(run.json[0]).toMatchObject({
			endUserId: 'john',
			albatoUserId: user.albatoId,
			planId: 1,
			trxLimit: PLANS[0].trxLimit - 950,
		});
		expect(run.json[0]).not.toHaveProperty('id');
		expect(run.json[0]).not.toHaveProperty('transactions');
	});

	it('Include Transactions sends ?expand=transactions and outputs what comes back', async () => {
		ctx.emu.setTransactionsUsed('john', 10);
		const run = await runPartner(
			ctx.emu,
			{ ...get, options: { includeTransactions: true } },
			{ inputItems: [{ customer: 'john' }] },
		);
		expect(ctx.emu.requests.at(-1)!.query).toEqual({ expand: 'transactions' });
		expect(run.json[0].transactions).toMatchObject({ used: 10 });
	});

	it.each([
		['basic profile (no billing)', { profileShape: 'basic' as const }],
		['ids as strings', { stringIds: true }],
		['bare bodies', { bare: true }],
	])('variant %s', async (_name, variants) => {
		ctx.emu.setVariants(variants);
		const run = await runPartner(ctx.emu, get, { inputItems: [{ customer: 'john' }] });
		expect(run.error).toBeUndefined();
		expect(typeof run.json[0].albatoUserId).toBe('number');
		expect(run.json[0].endUserId).toBe('john');
	});

	it('an unknown user is reported as not found', async () => {
		const run = await runPartner(ctx.emu, get, { inputItems: [{ customer: 'nobody' }] });
		expect(run.error?.message).toMatch(/not found/i);
		// The hint is about the end user, not "no such partner endpoint".
		expect(run.error?.description).toMatch(/No end user with this End User ID/);
		expect(run.error?.description).not.toMatch(/No such partner endpoint/);
	});

	it('needs the partner credential: refused before any request', async () => {
		const run = await runNode(ctx.emu, get);
		expect(run.error?.message).toMatch(/End User needs the Albato Partner API credential/);
		expect(callsTo(run, PROFILE_PATH)).toBe(0);
		expect(run.calls).toEqual([]);
	});
});
