/**
 * Plans (issue 31): End User → Get Plans (list-plans, GET, or POST after a 405), the Set Plan picker
 * (loadOptions getPlans, with each plan's monthly transactions), Set Plan's check against list-plans
 * (an unknown plan from an expression sends nothing; saved values of the old text field still work),
 * and End User → Get's plan usage (monthlyTrx, trxUsedShare).
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
import { runNode } from '../../support/setup';
import { BASIC_STYLES, LIST_PLANS_PATH } from './billingSetup';
import { callsTo, SET_PLAN_PATH } from './lifecycleSetup';

const ctx = usePartnerEmulator();
const getPlans = { resource: 'endUser', operation: 'getPlans' };
const setPlan = (planId: number | string) => ({ resource: 'endUser', operation: 'setPlan', planId });
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

	it('End User ID is not used: any value (here no such user) gives the partner’s plans, no token call', async () => {
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
			credential: partnerCredential(ctx.emu, { basicAuthStyle: style }),
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

describe('End User → Get with Include Plan Usage', () => {
	const get = { resource: 'endUser', operation: 'get', options: { includePlanUsage: true } };

	it('adds the plan’s monthlyTrx and the share used (1 − trxLimit / monthlyTrx)', async () => {
		ctx.emu.setTransactionsUsed('john', 950);
		const run = await runPartner(ctx.emu, get, { inputItems: [{ customer: 'john' }] });
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({
			endUserId: 'john',
			planId: 1,
			trxLimit: 50,
			monthlyTrx: 1000,
			trxUsedShare: 0.95,
		});
	});

	it('reads list-plans once for many customers', async () => {
		const run = await runPartner(ctx.emu, get, {
			inputItems: [{ customer: 'john' }, { customer: 'mary' }, { customer: 'ann' }],
		});
		expect(callsTo(run, LIST_PLANS_PATH)).toBe(1);
		expect(run.json.map((item) => item.trxUsedShare)).toEqual([0, 0, 0]);
	});

	it('more left than the plan gives (extra transactions): the share is null, not made up', async () => {
		await runPartner(
			ctx.emu,
			{
				resource: 'endUser',
				operation: 'addTransactions',
				transactionCount: 500,
				confirmAddTransactions: true,
			},
			{ inputItems: [{ customer: 'john' }] },
		);
		const run = await runPartner(ctx.emu, get, { inputItems: [{ customer: 'john' }] });
		expect(run.json[0]).toMatchObject({ trxLimit: 1500, monthlyTrx: 1000, trxUsedShare: null });
	});

	it.each([
		['no plan (taken away)', () => ctx.emu.billing.clearPlan('john'), {}],
		['a profile without billing fields', () => undefined, { profileShape: 'basic' as const }],
	])(
		'%s: monthlyTrx and the share are null, list-plans is not read',
		async (_n, arrange, variants) => {
			arrange();
			ctx.emu.setVariants(variants);
			const run = await runPartner(ctx.emu, get, { inputItems: [{ customer: 'john' }] });
			expect(run.error).toBeUndefined();
			expect(run.json[0]).toMatchObject({ monthlyTrx: null, trxUsedShare: null });
			expect(callsTo(run, LIST_PLANS_PATH)).toBe(0);
		},
	);

	it('ids and counts as strings: still read', async () => {
		ctx.emu.setVariants({ stringIds: true });
		ctx.emu.setTransactionsUsed('john', 100);
		const run = await runPartner(ctx.emu, get, { inputItems: [{ customer: 'john' }] });
		expect(run.json[0]).toMatchObject({ monthlyTrx: 1000, trxUsedShare: 0.1 });
	});
});
