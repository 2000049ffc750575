/**
 * Transactions Running Low (issue 31, the optional trigger event): through n8n-core's PollContext
 * against the emulator. Reported once when the end user's transactions left fall below Running Low
 * Below (a count or a share of the plan), again only after something lifted them back; the first
 * poll reports it when low then; a percentage without a plan is not judged; a changed limit or end
 * user is judged afresh; the Access Token credential and a bad limit fail before any request.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { pollContext } from '../../harness';
import {
	addUsers,
	partnerCredential,
	runPartner,
	usePartnerEmulator,
} from '../support/partnerSetup';

const ctx = usePartnerEmulator();

const PROFILE = /\/get-user-profile$/;
const LIST_PLANS = /\/list-plans$/;

beforeEach(async () => await addUsers(ctx.emu, ['ann', 'bob']));

function context(
	staticData: IDataObject,
	{
		limit = '10%',
		endUserId = 'ann',
		events = ['transactionsRunningLow'],
		mode = 'trigger',
		accessToken = false,
	}: {
		limit?: unknown;
		endUserId?: string;
		events?: string[];
		mode?: 'trigger' | 'manual';
		accessToken?: boolean;
	} = {},
): IPollFunctions {
	return pollContext({
		nodeType: new AlbatoSolutionsTrigger(),
		parameters: {
			events,
			runningLowBelow: limit as string,
			...(accessToken ? {} : { authentication: 'partnerApi', endUserId }),
		},
		credentials: accessToken
			? { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.emu.token() } }
			: { albatoPartnerApi: partnerCredential(ctx.emu) },
		staticData,
		mode,
	});
}

async function poll(staticData: IDataObject, options: Parameters<typeof context>[1] = {}) {
	const output = await new AlbatoSolutionsTrigger().poll.call(context(staticData, options));
	return output ? output[0].map((item) => item.json) : [];
}

const requestsSince = (before: number, path: RegExp) =>
	ctx.emu.requests.slice(before).filter((entry) => path.test(entry.path)).length;

/** The Free plan gives 1,000 transactions a month; ann has used this many. */
const use = (used: number, who = 'ann') => ctx.emu.setTransactionsUsed(who, used);

describe('Trigger: Transactions Running Low', () => {
	it('once when it falls below 10% of the plan, quiet while low, again after a top-up lifted it back', async () => {
		const staticData: IDataObject = {};
		use(800);
		expect(await poll(staticData)).toEqual([]); // 200 of 1,000 left
		use(950);
		const [low] = await poll(staticData);
		expect(low).toMatchObject({
			event: 'transactionsRunningLow',
			endUserId: 'ann',
			albatoUserId: expect.any(Number),
			planId: 1,
			trxLimit: 50,
			monthlyTrx: 1000,
			trxUsedShare: 0.95,
			runningLowBelow: '10%',
			runningLow: true,
		});
		use(990);
		expect(await poll(staticData)).toEqual([]); // still low: said already
		await runPartner(
			ctx.emu,
			{
				resource: 'endUser',
				operation: 'addTransactions',
				transactionCount: 500,
				confirmAddTransactions: true,
			},
			{ inputItems: [{ customer: 'ann' }] },
		);
		expect(await poll(staticData)).toEqual([]); // 510 left: lifted back
		use(1450);
		expect(await poll(staticData)).toEqual([
			expect.objectContaining({ trxLimit: 50, trxUsedShare: 0.95 }),
		]);
	});

	it('a count: below 100 transactions left; the plan is not read for it', async () => {
		const staticData: IDataObject = {};
		use(850);
		const before = ctx.emu.requests.length;
		expect(await poll(staticData, { limit: '100' })).toEqual([]);
		use(901);
		expect(await poll(staticData, { limit: 100 })).toEqual([
			expect.objectContaining({ trxLimit: 99, monthlyTrx: null, runningLowBelow: '100' }),
		]);
		expect(requestsSince(before, PROFILE)).toBe(2);
		expect(requestsSince(before, LIST_PLANS)).toBe(0);
		// The plain profile: the undocumented ?expand=transactions is not asked for.
		const profiles = ctx.emu.requests.slice(before).filter((entry) => PROFILE.test(entry.path));
		expect(profiles.map((entry) => entry.rawQuery ?? '')).toEqual(['', '']);
	});

	it('the first poll reports an end user already low', async () => {
		use(999);
		expect(await poll({})).toEqual([expect.objectContaining({ trxLimit: 1, runningLow: true })]);
	});

	it('a plan taken away: a percentage cannot be judged (nothing, baseline kept); a count can', async () => {
		const staticData: IDataObject = {};
		use(100);
		expect(await poll(staticData)).toEqual([]);
		const kept = JSON.stringify(staticData);
		ctx.emu.billing.clearPlan('ann');
		const before = ctx.emu.requests.length;
		expect(await poll(staticData)).toEqual([]);
		expect(JSON.stringify(staticData)).toBe(kept);
		expect(requestsSince(before, LIST_PLANS)).toBe(0); // no plan named: the plans are not read
		expect(await poll(staticData, { limit: '1' })).toEqual([
			expect.objectContaining({ trxLimit: 0, planId: null }),
		]);
	});

	it('a new limit or another end user is judged afresh', async () => {
		const staticData: IDataObject = {};
		use(850); // 150 left: above 10%, below 20%
		expect(await poll(staticData)).toEqual([]);
		expect(await poll(staticData, { limit: '20%' })).toEqual([
			expect.objectContaining({ trxLimit: 150, runningLowBelow: '20%' }),
		]);
		use(990, 'bob');
		expect(await poll(staticData, { limit: '20%', endUserId: 'bob' })).toEqual([
			expect.objectContaining({ endUserId: 'bob', trxLimit: 10 }),
		]);
		use(999); // ann again: the baseline is bob's now, so she is judged afresh
		expect(await poll(staticData, { limit: '20%' })).toEqual([
			expect.objectContaining({ endUserId: 'ann', trxLimit: 1 }),
		]);
	});

	it('a new limit is judged afresh even while low: reported again under it', async () => {
		const staticData: IDataObject = {};
		use(960);
		expect(await poll(staticData)).toHaveLength(1);
		expect(await poll(staticData)).toEqual([]);
		expect(await poll(staticData, { limit: '20%' })).toEqual([
			expect.objectContaining({ trxLimit: 40, runningLowBelow: '20%' }),
		]);
		expect(await poll(staticData, { limit: '20%' })).toEqual([]);
	});

	it('with other events in the same poll: each kind reports its own', async () => {
		const staticData: IDataObject = {};
		use(999);
		const items = await poll(staticData, {
			events: ['installationCreated', 'transactionsRunningLow'],
		});
		expect(items.map((item) => item.event)).toEqual(['transactionsRunningLow']);
		expect(
			await poll(staticData, { events: ['installationCreated', 'transactionsRunningLow'] }),
		).toEqual([]);
	});

	it('Fetch Test Event: the end user now, low or not, and the baseline untouched', async () => {
		const staticData: IDataObject = {};
		use(300);
		expect(await poll(staticData, { mode: 'manual' })).toEqual([
			expect.objectContaining({
				event: 'transactionsRunningLow',
				endUserId: 'ann',
				trxLimit: 700,
				runningLow: false,
			}),
		]);
		expect(staticData).toEqual({});
	});

	it('no token of the profile in the item', async () => {
		use(999);
		const [item] = await poll({});
		const text = JSON.stringify(item);
		expect(text).not.toMatch(/token/i);
		expect(text).not.toContain(ctx.emu.partner.masterToken);
	});

	it('a failed profile read fails the poll and changes nothing: the next poll reports it', async () => {
		const staticData: IDataObject = {};
		use(999);
		ctx.emu.faults.add({ path: PROFILE, status: 400, times: 1 });
		await expect(poll(staticData)).rejects.toThrow();
		ctx.emu.faults.clear();
		expect(JSON.stringify(staticData)).not.toContain('usageEvents');
		expect(await poll(staticData)).toHaveLength(1);
	});

	it.each([['0'], ['0%'], ['150%'], ['ten'], ['-5'], ['']])(
		'Running Low Below %j is refused, naming the parameter, before any request',
		async (limit) => {
			const before = ctx.emu.requests.length;
			await expect(poll({}, { limit })).rejects.toThrow(/Running Low Below must be/);
			expect(ctx.emu.requests.length).toBe(before);
		},
	);

	it('the Access Token credential is refused before any request: end users are the partner’s', async () => {
		const before = ctx.emu.requests.length;
		await expect(poll({}, { accessToken: true })).rejects.toMatchObject({
			message: 'Transactions Running Low needs the Albato Partner API credential',
			description: expect.stringContaining('set Authentication to "Partner API"'),
		});
		expect(ctx.emu.requests.length).toBe(before);
	});
});
