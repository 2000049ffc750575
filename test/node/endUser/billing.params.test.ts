/**
 * Bad input to the billing operations, one row per bad value: the second item carries
 * it, the first is valid. The bad item fails naming the parameter, is paired to its own input, and
 * sends nothing: no write for it reaches the service, and nothing of its user changes.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PLANS } from '../../../emulator/fixtures';
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { giveActiveInstallation } from './billingSetup';

const ctx = usePartnerEmulator();

const WRITES = /\/(set-user-plan|block-user-plan|add-user-plan-transactions)$/;
const addTransactions = {
	resource: 'endUser',
	operation: 'addTransactions',
	transactionCount: '={{ $json.count }}',
	confirmAddTransactions: true,
};
const cases: Array<[string, INodeParameters, IDataObject, RegExp]> = [
	[
		'an unknown plan ID from an expression',
		{ resource: 'endUser', operation: 'setPlan', planId: '={{ $json.plan }}' },
		{ customer: 'mary', plan: 999 },
		/^Plan ID 999 is not one of your billing plans/,
	],
	[
		'a plan ID that is not a number',
		{ resource: 'endUser', operation: 'setPlan', planId: '={{ $json.plan }}' },
		{ customer: 'mary', plan: 'gold' },
		/^Plan "gold" is not a plan ID: Albato's plans have no names\. Pick it from the list/,
	],
	[
		'a count of 150',
		addTransactions,
		{ customer: 'mary', count: 150 },
		/^Transactions to Add .* got 150/,
	],
	[
		'a count of 0',
		addTransactions,
		{ customer: 'mary', count: 0 },
		/^Transactions to Add .* got 0/,
	],
	[
		'a count of −100',
		addTransactions,
		{ customer: 'mary', count: -100 },
		/^Transactions to Add .* got -100/,
	],
	[
		'Block without confirmation',
		{ resource: 'endUser', operation: 'block', confirmBlock: '={{ $json.confirm }}' },
		{ customer: 'mary', confirm: false },
		/^Confirm: Block the User is off: end user "mary" was not blocked/,
	],
	[
		'Add Transactions without confirmation',
		{ ...addTransactions, confirmAddTransactions: '={{ $json.confirm }}' },
		{ customer: 'mary', count: 100, confirm: false },
		/^Confirm: Add Paid Transactions is off/,
	],
	...(['setPlan', 'block', 'addTransactions'] as const).map(
		(operation) =>
			[
				`a missing End User ID (${operation})`,
				{
					resource: 'endUser',
					operation,
					planId: 23,
					confirmBlock: true,
					transactionCount: 100,
					confirmAddTransactions: true,
				},
				{ customer: '' },
				/End User ID/,
			] as [string, INodeParameters, IDataObject, RegExp],
	),
];

describe('billing: bad input is refused before any request, naming the parameter and the item', () => {
	beforeEach(async () => {
		await addUsers(ctx.emu, ['john', 'mary']);
		giveActiveInstallation(ctx.emu, 'mary');
	});

	it.each(cases)('%s', async (_name, parameters, bad, message) => {
		const good = { customer: 'john', plan: 23, count: 100, confirm: true };
		const run = await runPartner(ctx.emu, parameters, {
			inputItems: [good, bad],
			continueOnFail: true,
		});
		expect(run.pairedItems).toEqual([{ item: 0 }, { item: 1 }]);
		expect(run.json[0].error).toBeUndefined();
		expect(String(run.json[1].error)).toMatch(message);
		const writes = ctx.emu.requests.filter((r) => WRITES.test(r.path));
		expect(writes.map((r) => (r.body as { id: string }).id)).toEqual(['john']);
		expect(ctx.emu.billing.isBlocked('mary')).toBe(false);
		expect(ctx.emu.state.installations.get(5002)!.status).toBe(1);
		const profile = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'get' },
			{ inputItems: [{ customer: 'mary' }] },
		);
		expect(profile.json[0]).toMatchObject({ planId: 1, trxLimit: PLANS[0].trxLimit });
	});
});
