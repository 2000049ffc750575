/**
 * End User → Set Plan: the documented body, the plan applied, bad plan ids refused before any
 * request.
 */
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { callsTo, SET_PLAN_PATH } from './lifecycleSetup';

const ctx = usePartnerEmulator();
const setPlan = (planId: number | string) => ({
	resource: 'endUser',
	operation: 'setPlan',
	planId,
});

describe('End User → Set Plan', () => {
	beforeEach(async () => await addUsers(ctx.emu, ['john']));

	it.each([
		['envelope', {}],
		['bare [] answer', { bare: true }],
	])('puts the user on the plan (%s)', async (_name, variants) => {
		ctx.emu.setVariants(variants);
		const run = await runPartner(ctx.emu, setPlan(23), { inputItems: [{ customer: 'john' }] });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([{ endUserId: 'john', planId: 23, planSet: true }]);
		expect(ctx.emu.requests.at(-1)!.body).toEqual({ id: 'john', planId: 23 });
		const profile = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'get' },
			{ inputItems: [{ customer: 'john' }] },
		);
		expect(profile.json[0].planId).toBe(23);
	});

	it("an unknown plan: the service's refusal, with its message", async () => {
		const run = await runPartner(ctx.emu, setPlan(999), { inputItems: [{ customer: 'john' }] });
		expect(run.error?.message).toMatch(/planId/);
	});

	it.each([
		['zero', 0],
		['a fraction', 1.5],
	])('a plan ID that is %s is refused before any request', async (_name, planId) => {
		const run = await runPartner(ctx.emu, setPlan(planId), { inputItems: [{ customer: 'john' }] });
		expect(run.error?.message).toMatch(/Plan ID must be a positive whole number/);
		expect(callsTo(run, SET_PLAN_PATH)).toBe(0);
		expect(run.calls).toEqual([]);
	});

	it('a plan given by name is refused pointing at the list and at Get Plans', async () => {
		const run = await runPartner(ctx.emu, setPlan('={{ "Pro" }}'), {
			inputItems: [{ customer: 'john' }],
		});
		expect(run.error?.message).toBe(
			'Plan "Pro" is not a plan ID: Albato\'s plans have no names. Pick it from the list in Plan Name or ID (each shows its ID and monthly transactions), or list them with End User → Get Plans (planId)',
		);
		expect(run.calls).toEqual([]);
	});
});
