/**
 * End User → Set Plan: the plan picker (loadOptions getPlans, each plan with its monthly
 * transactions) and the check against list-plans: an unknown plan from an expression sends nothing;
 * values saved by the old text field and expressions still work.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { PLANS } from '../../../emulator/fixtures';
import { loadOptionsContext } from '../../../harness';
import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import {
	addUsers,
	partnerCredential,
	runPartner,
	usePartnerEmulator,
} from '../../support/partnerSetup';
import { LIST_PLANS_PATH } from './billingSetup';
import { callsTo, SET_PLAN_PATH } from './lifecycleSetup';

const ctx = usePartnerEmulator();
const setPlan = (planId: number | string) => ({
	resource: 'endUser',
	operation: 'setPlan',
	planId,
});

beforeEach(async () => await addUsers(ctx.emu, ['john', 'mary', 'ann']));

describe('the plan picker (Set Plan → Plan Name or ID)', () => {
	const node = new AlbatoSolutions();
	const pick = async (parameters: Record<string, unknown>, credentials: object) =>
		await node.methods.loadOptions.getPlans.call(
			loadOptionsContext({
				nodeType: node,
				parameters: { resource: 'endUser', operation: 'setPlan', ...parameters },
				credentials: credentials as never,
			}),
		);

	it('lists each plan with its monthly transactions, from one list-plans call', async () => {
		const before = ctx.emu.requests.length;
		const options = (await pick(
			{ authentication: 'partnerApi', endUserId: 'john' },
			{ albatoPartnerApi: partnerCredential(ctx.emu) },
		)) as INodePropertyOptions[];
		expect(options).toEqual([
			{ name: 'Plan 1: 1,000 transactions a month', value: 1, description: 'monthlyTrx: 1000' },
			{ name: 'Plan 23: 10,000 transactions a month', value: 23, description: 'monthlyTrx: 10000' },
			{
				name: 'Plan 24: 100,000 transactions a month',
				value: 24,
				description: 'monthlyTrx: 100000',
			},
		]);
		expect(ctx.emu.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /wl/${ctx.emu.partner.name}/list-plans`,
		]);
	});

	it('works while End User ID is an expression (no end user is needed)', async () => {
		const options = await pick(
			{ authentication: 'partnerApi', endUserId: '={{ $json.customer }}' },
			{ albatoPartnerApi: partnerCredential(ctx.emu) },
		);
		expect(options).toHaveLength(PLANS.length);
	});

	it('with the Access Token credential: says the partner credential is needed', async () => {
		await expect(
			pick(
				{ authentication: 'accessToken' },
				{ albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.emu.token() } },
			),
		).rejects.toThrow(/Billing plans need the Albato Partner API credential/);
	});

	it('the master token is in no picker error', async () => {
		ctx.emu.faults.add({ path: LIST_PLANS_PATH, status: 400, echoAuthorization: true });
		const error = await pick(
			{ authentication: 'partnerApi', endUserId: 'john' },
			{ albatoPartnerApi: partnerCredential(ctx.emu) },
		).catch((e: unknown) => e as Error & { description?: string });
		expect(String((error as Error).message)).toMatch(/Could not load the billing plans/);
		expect(JSON.stringify(error) + String((error as Error).message)).not.toContain(
			ctx.emu.partner.masterToken,
		);
	});
});

describe('End User → Set Plan against list-plans', () => {
	it.each([
		['a number (new picker value)', 23],
		['a numeric text (saved by the old text field)', '23'],
		['an expression', '={{ $json.plan }}'],
	])('takes %s', async (_name, planId) => {
		const run = await runPartner(ctx.emu, setPlan(planId), {
			inputItems: [{ customer: 'john', plan: 23 }],
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([{ endUserId: 'john', planId: 23, planSet: true }]);
		expect(ctx.emu.requests.at(-1)!.body).toEqual({ id: 'john', planId: 23 });
	});

	it('an unknown plan from an expression is refused before set-user-plan, naming it and the item', async () => {
		const run = await runPartner(ctx.emu, setPlan('={{ $json.plan }}'), {
			inputItems: [
				{ customer: 'john', plan: 23 },
				{ customer: 'mary', plan: 999 },
			],
			continueOnFail: true,
		});
		expect(run.json[0]).toEqual({ endUserId: 'john', planId: 23, planSet: true });
		expect(String(run.json[1].error)).toMatch(
			/^Plan ID 999 is not one of your billing plans \(planId must be one of: 1, 23, 24\)/,
		);
		expect(callsTo(run, SET_PLAN_PATH)).toBe(1);
		expect(ctx.emu.requests.filter((r) => SET_PLAN_PATH.test(r.path)).map((r) => r.body)).toEqual([
			{ id: 'john', planId: 23 },
		]);
	});

	it('reads list-plans once for many items', async () => {
		const run = await runPartner(ctx.emu, setPlan(24), {
			inputItems: [{ customer: 'john' }, { customer: 'mary' }, { customer: 'ann' }],
		});
		expect(run.error).toBeUndefined();
		expect(callsTo(run, LIST_PLANS_PATH)).toBe(1);
		expect(callsTo(run, SET_PLAN_PATH)).toBe(3);
	});

	it('a missing End User ID is refused before any request, naming it and the item', async () => {
		const run = await runPartner(ctx.emu, setPlan(23), { inputItems: [{ customer: '' }] });
		expect(run.error?.message).toMatch(/End User ID/);
		expect(run.error?.context?.itemIndex).toBe(0);
		expect(run.calls).toEqual([]);
	});
});
