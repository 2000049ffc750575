/**
 * No secret leaks from the new calls under any fault kind: Run → Get Many / Get Step (the end
 * user's minted token) and End User → Get / Set Plan / Delete (the master token), in partner mode;
 * outputs, errors and the console are searched for the master token and every end-user token.
 */
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import {
	captureConsole,
	expectNoPartnerSecret,
	FAULT_REQUEST_OPTIONS,
	PARTNER_FAULT_KINDS,
} from '../../support/secrets';
import { byId } from '../../support/setup';

const ctx = usePartnerEmulator();

const FAULTS = PARTNER_FAULT_KINDS;
const OPERATIONS: Array<[string, RegExp | string, Record<string, unknown>]> = [
	[
		'Run → Get Many',
		'/bundle/events',
		{ resource: 'run', operation: 'getAll', installationId: byId('id', 5002), returnAll: true },
	],
	[
		'Run → Get Step',
		/^\/bundle\/events\/steps\//,
		{ resource: 'run', operation: 'getStep', runStepId: '={{ $json.step }}' },
	],
	['End User → Get', /get-user-profile$/, { resource: 'endUser', operation: 'get' }],
	[
		'End User → Set Plan',
		/set-user-plan$/,
		{ resource: 'endUser', operation: 'setPlan', planId: 23 },
	],
	[
		'End User → Delete',
		/delete-user$/,
		{ resource: 'endUser', operation: 'delete', confirmDelete: true },
	],
];
const cases = OPERATIONS.flatMap(([op, path, params]) =>
	FAULTS.map(([fault, rule]) => [`${op}: ${fault}`, params, { ...rule, path, times: 10 }] as const),
);

describe('no token in outputs, errors or the console (run history, user lifecycle)', () => {
	beforeEach(async () => {
		await addUsers(ctx.emu, ['c-1']);
		ctx.emu.state.installations.get(5002)!.userId = `${ctx.emu.partner.name}:c-1`;
	});
	const logged = captureConsole();

	it.each(cases)('%s', async (_name, params, rule) => {
		const step = ctx.emu.runs().find((r) => r.bundleId === 7003)!.steps[0][0].id;
		ctx.emu.faults.add(rule);
		const run = await runPartner(
			ctx.emu,
			{ ...params, requestOptions: FAULT_REQUEST_OPTIONS },
			{ inputItems: [{ customer: 'c-1', step }], continueOnFail: true },
		);
		expect(run.calls.length).toBeGreaterThan(0);
		expectNoPartnerSecret(ctx.emu, run.serialized + JSON.stringify(run.json) + logged.join('\n'));
	});
});
