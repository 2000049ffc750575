/**
 * End User → Add Transactions: the count is a positive multiple of 100 and the
 * confirmation is on, both checked before any request; add-user-plan-transactions {id, count}; a
 * user without an active plan gets the service's refusal with a hint; never repeated; partner
 * credential only.
 */
import { PLANS } from '../../../emulator/fixtures';
import {
	addUsers,
	partnerCredential,
	masterForm,
	runPartner,
	usePartnerEmulator,
} from '../../support/partnerSetup';
import { runNode } from '../../support/setup';
import { ADD_TRX_PATH, BASIC_STYLES } from './billingSetup';
import { callsTo } from './lifecycleSetup';

const ctx = usePartnerEmulator();
const add = (transactionCount: number | string, confirmAddTransactions = true) => ({
	resource: 'endUser',
	operation: 'addTransactions',
	transactionCount,
	confirmAddTransactions,
});
const left = async (id: string) =>
	(
		await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'get' },
			{ inputItems: [{ customer: id }] },
		)
	).json[0].trxLimit;

describe('End User → Add Transactions', () => {
	beforeEach(async () => await addUsers(ctx.emu, ['john']));

	it('sends {id, count}, outputs {endUserId, transactionsAdded}; the transactions are there', async () => {
		ctx.emu.setTransactionsUsed('john', 950);
		const run = await runPartner(ctx.emu, add(2000), { inputItems: [{ customer: 'john' }] });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([{ endUserId: 'john', transactionsAdded: 2000 }]);
		expect(run.calls).toEqual([`POST /wl/${ctx.emu.partner.name}/add-user-plan-transactions`]);
		expect(ctx.emu.requests.at(-1)!.body).toEqual({ id: 'john', count: 2000 });
		expect(await left('john')).toBe(PLANS[0].trxLimit - 950 + 2000);
	});

	it.each([
		['150', 150],
		['0', 0],
		['−100', -100],
		['a fraction', 150.5],
		['text', '={{ "lots" }}'],
		['empty', ''],
	])('a count of %s is refused before any request, saying why', async (_name, count) => {
		const run = await runPartner(ctx.emu, add(count), {
			inputItems: [{ customer: 'john' }],
		});
		expect(run.error?.message).toMatch(
			/^Transactions to Add must be greater than 0 and a multiple of 100/,
		);
		expect(run.error?.context?.itemIndex).toBe(0);
		expect(run.calls).toEqual([]);
	});

	it('the second item with a bad count fails alone, naming its item', async () => {
		const run = await runPartner(
			ctx.emu,
			{ ...add('={{ $json.count }}') },
			{
				inputItems: [
					{ customer: 'john', count: 100 },
					{ customer: 'john', count: 150 },
				],
				continueOnFail: true,
			},
		);
		expect(run.json[0]).toEqual({ endUserId: 'john', transactionsAdded: 100 });
		expect(String(run.json[1].error)).toMatch(/multiple of 100 \(Albato's rule\), got 150/);
		expect(callsTo(run, ADD_TRX_PATH)).toBe(1);
	});

	it('without the confirmation nothing is sent (it spends money)', async () => {
		const run = await runPartner(ctx.emu, add(500, false), { inputItems: [{ customer: 'john' }] });
		expect(run.error?.message).toMatch(/Confirm: Add Paid Transactions is off/);
		expect(run.calls).toEqual([]);
		expect(await left('john')).toBe(PLANS[0].trxLimit);
	});

	it("no active plan: the service's refusal, with a hint to set a plan first", async () => {
		ctx.emu.billing.clearPlan('john');
		const run = await runPartner(ctx.emu, add(500), { inputItems: [{ customer: 'john' }] });
		expect(run.error?.message).toMatch(/no active billing plan/);
		expect(run.error?.description).toMatch(/End User → Set Plan/);
		expect(callsTo(run, ADD_TRX_PATH)).toBe(1);
	});

	it('a blocked user has no active plan: refused with the same hint', async () => {
		await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'block', confirmBlock: true },
			{ inputItems: [{ customer: 'john' }] },
		);
		const run = await runPartner(ctx.emu, add(500), { inputItems: [{ customer: 'john' }] });
		expect(run.error?.description).toMatch(/A blocked user has no active plan/);
	});

	it('an unknown user is reported as such', async () => {
		const run = await runPartner(ctx.emu, add(100), { inputItems: [{ customer: 'nobody' }] });
		expect(run.error?.message).toBe('End user "nobody" does not exist: no transactions were added');
	});

	it.each([
		['a 500', { status: 500 }],
		['a lost answer', { reset: 'after' as const }],
	])('never repeated after %s (it would add them twice)', async (_name, fault) => {
		ctx.emu.faults.add({ method: 'POST', path: ADD_TRX_PATH, times: 5, ...fault });
		const run = await runPartner(
			ctx.emu,
			{ ...add(100), requestOptions: { maxRetries: 3, timeout: 2 } },
			{ inputItems: [{ customer: 'john' }] },
		);
		expect(run.error).toBeDefined();
		expect(callsTo(run, ADD_TRX_PATH)).toBe(1);
	});

	it.each(BASIC_STYLES)('master token as %s', async (_name, style) => {
		ctx.emu.partner.set({ acceptStyles: style });
		const run = await runPartner(ctx.emu, add(100), {
			inputItems: [{ customer: 'john' }],
			credential: partnerCredential(ctx.emu, { headerForm: masterForm(style) }),
		});
		expect(run.error).toBeUndefined();
	});

	it.each([
		['bare bodies', { bare: true }],
		['ids as strings', { stringIds: true }],
	])('answer variant: %s', async (_name, variants) => {
		ctx.emu.setVariants(variants);
		const run = await runPartner(ctx.emu, add(100), { inputItems: [{ customer: 'john' }] });
		expect(run.json).toEqual([{ endUserId: 'john', transactionsAdded: 100 }]);
	});

	it('with the Access Token credential: a clear message, nothing sent', async () => {
		const run = await runNode(ctx.emu, add(100));
		expect(run.error?.message).toMatch(/End User needs the Albato Partner API credential/);
		expect(run.calls).toEqual([]);
	});
});
