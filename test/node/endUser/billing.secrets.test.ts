/**
 * No secret leaks from the billing calls under any fault kind: End User → Get Plans,
 * Block, Add Transactions, Set Plan (list-plans first) and Get with plan usage, with the master
 * token; outputs, errors and the console are searched for the master token and every end-user
 * token.
 */
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import {
	captureConsole,
	expectNoPartnerSecret,
	FAULT_REQUEST_OPTIONS,
	PARTNER_FAULT_KINDS,
} from '../../support/secrets';
import { ADD_TRX_PATH, BLOCK_PATH, LIST_PLANS_PATH } from './billingSetup';

const ctx = usePartnerEmulator();

const OPERATIONS: Array<[string, RegExp, Record<string, unknown>]> = [
	['Get Plans', LIST_PLANS_PATH, { resource: 'endUser', operation: 'getPlans' }],
	['Block', BLOCK_PATH, { resource: 'endUser', operation: 'block', confirmBlock: true }],
	[
		'Add Transactions',
		ADD_TRX_PATH,
		{
			resource: 'endUser',
			operation: 'addTransactions',
			transactionCount: 100,
			confirmAddTransactions: true,
		},
	],
	[
		'Set Plan (list-plans)',
		LIST_PLANS_PATH,
		{ resource: 'endUser', operation: 'setPlan', planId: 23 },
	],
	[
		'Get with plan usage (list-plans)',
		LIST_PLANS_PATH,
		{ resource: 'endUser', operation: 'get', options: { includePlanUsage: true } },
	],
];
const cases = OPERATIONS.flatMap(([op, path, params]) =>
	PARTNER_FAULT_KINDS.map(
		([fault, rule]) => [`${op}: ${fault}`, params, { ...rule, path, times: 10 }] as const,
	),
);

describe('no token in outputs, errors or the console (billing)', () => {
	beforeEach(async () => await addUsers(ctx.emu, ['c-1']));
	const logged = captureConsole();

	it.each(cases)('%s', async (_name, params, rule) => {
		ctx.emu.faults.add(rule);
		const run = await runPartner(
			ctx.emu,
			{ ...params, requestOptions: FAULT_REQUEST_OPTIONS },
			{ inputItems: [{ customer: 'c-1' }], continueOnFail: true },
		);
		expect(run.calls.length).toBeGreaterThan(0);
		expectNoPartnerSecret(ctx.emu, run.serialized + JSON.stringify(run.json) + logged.join('\n'));
	});

	it('bad input names no secret either', async () => {
		const run = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'setPlan', planId: 999 },
			{ inputItems: [{ customer: 'c-1' }], continueOnFail: true },
		);
		expect(String(run.json[0].error)).toMatch(/Plan ID 999/);
		expectNoPartnerSecret(ctx.emu, run.serialized + JSON.stringify(run.json));
	});
});
