/**
 * End User → Get with Include Plan Usage: monthlyTrx from list-plans and trxUsedShare,
 * or null when not computable.
 */
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { LIST_PLANS_PATH } from './billingSetup';
import { callsTo } from './lifecycleSetup';

const ctx = usePartnerEmulator();

beforeEach(async () => await addUsers(ctx.emu, ['john', 'mary', 'ann']));

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
