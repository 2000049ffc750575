/**
 * End User → Get Plans: list-plans by GET, or POST after a 405; answer variants; Basic
 * styles; partner credential only.
 */
import { NodeHelpers } from 'n8n-workflow';

import { PLANS } from '../../../emulator/fixtures';
import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import {
	addUsers,
	partnerCredential,
	masterForm,
	runPartner,
	usePartnerEmulator,
} from '../../support/partnerSetup';
import { runNode } from '../../support/setup';
import { BASIC_STYLES, LIST_PLANS_PATH } from './billingSetup';

const ctx = usePartnerEmulator();
const getPlans = { resource: 'endUser', operation: 'getPlans' };
const documented = PLANS.map((plan) => ({ planId: plan.id, monthlyTrx: plan.trxLimit }));

beforeEach(async () => await addUsers(ctx.emu, ['john', 'mary', 'ann']));

describe('End User → Get Plans', () => {
	it('one item per plan, {planId, monthlyTrx}, from GET list-plans', async () => {
		const run = await runPartner(ctx.emu, getPlans, { inputItems: [{ customer: 'john' }] });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual(documented);
		expect(run.calls).toEqual([`GET /wl/${ctx.emu.partner.name}/list-plans`]);
		expect(run.pairedItems).toEqual(documented.map(() => ({ item: 0 })));
	});

	it('End User ID is not shown for Get Plans (shown for the other End User operations)', () => {
		const { description } = new AlbatoSolutions();
		const property = description.properties.find((p) => p.name === 'endUserId')!;
		const shown = (operation: string) =>
			NodeHelpers.displayParameter(
				{ authentication: 'partnerApi', resource: 'endUser', operation },
				property,
				{ typeVersion: 3 },
				description,
			);
		expect([shown('getPlans'), shown('setPlan'), shown('get')]).toEqual([false, true, true]);
	});

	it('without End User ID (as saved now) it lists the plans', async () => {
		const run = await runPartner(ctx.emu, { ...getPlans, endUserId: undefined } as never);
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual(documented);
	});

	it('End User ID is not used: any value saved before (here no such user) gives the partner’s plans, no token call', async () => {
		const run = await runPartner(ctx.emu, { ...getPlans, endUserId: 'no-such-user' });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual(documented);
		expect(run.calls).toEqual([`GET /wl/${ctx.emu.partner.name}/list-plans`]);
	});

	it.each([
		['GET only', 'get' as const, ['GET']],
		['POST only: GET gets 405, then POST', 'post' as const, ['GET', 'POST']],
	])('list-plans takes %s', async (_name, listPlansMethod, methods) => {
		ctx.emu.setVariants({ listPlansMethod });
		const run = await runPartner(ctx.emu, getPlans, { inputItems: [{ customer: 'john' }] });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual(documented);
		expect(run.calls).toEqual(methods.map((m) => `${m} /wl/${ctx.emu.partner.name}/list-plans`));
	});

	it.each([
		['bare bodies', { bare: true }],
		['ids as strings', { stringIds: true }],
		['lists wrapped in {items}', { wrapLists: true }],
		['lists keyed by id', { listShape: 'map' as const }],
		['success as a number', { successFlag: 'number' as const }],
	])('answer variant: %s', async (_name, variants) => {
		ctx.emu.setVariants(variants);
		const run = await runPartner(ctx.emu, getPlans, { inputItems: [{ customer: 'john' }] });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual(documented);
	});

	it.each(BASIC_STYLES)('master token as %s', async (_name, style) => {
		ctx.emu.partner.set({ acceptStyles: style });
		const run = await runPartner(ctx.emu, getPlans, {
			credential: partnerCredential(ctx.emu, { headerForm: masterForm(style) }),
		});
		expect(run.json).toEqual(documented);
	});

	it('an answer without a list fails as unreadable (never "no plans")', async () => {
		ctx.emu.faults.add({ path: LIST_PLANS_PATH, emptyBody: true });
		const run = await runPartner(ctx.emu, getPlans);
		expect(run.error).toBeDefined();
		expect(run.json).toEqual([]);
	});

	it('with the Access Token credential: a clear message, nothing sent', async () => {
		const run = await runNode(ctx.emu, getPlans);
		expect(run.error?.message).toMatch(/End User needs the Albato Partner API credential/);
		expect(run.calls).toEqual([]);
	});
});
