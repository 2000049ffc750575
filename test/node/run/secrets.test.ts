/**
 * No secret leaks from the new calls under any fault kind: Run → Get Many / Get Step (the end user's
 * minted token) and End User → Get / Set Plan / Delete (the master token), in partner mode; outputs,
 * errors and the console are searched for the master token and every end-user token.
 */
import type { FaultRule } from '../../../emulator';
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { byId } from '../../support/setup';

const ctx = usePartnerEmulator();

const FAULTS: Array<[string, Omit<FaultRule, 'path'>]> = [
	['401', { status: 401 }],
	['429', { status: 429, retryAfterSeconds: 0 }],
	['500', { status: 500 }],
	['503', { status: 503 }],
	['reset before', { reset: 'before' }],
	['reset after', { reset: 'after' }],
	['timeout', { delayMs: 400 }],
	['malformed JSON', { malformedJson: true }],
	['success: false', { successFalse: true }],
	['400 quoting the Authorization header', { status: 400, echoAuthorization: true }],
];
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
	let logged: string[] = [];
	const spies: jest.SpyInstance[] = [];
	beforeEach(async () => {
		await addUsers(ctx.emu, ['c-1']);
		ctx.emu.state.installations.get(5002)!.userId = `${ctx.emu.partner.name}:c-1`;
		logged = [];
		for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const)
			spies.push(
				jest
					.spyOn(console, method)
					.mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
			);
	});
	afterEach(() => spies.splice(0).forEach((spy) => spy.mockRestore()));

	it.each(cases)('%s', async (_name, params, rule) => {
		const step = ctx.emu.runs().find((r) => r.bundleId === 7003)!.steps[0][0].id;
		ctx.emu.faults.add(rule);
		const run = await runPartner(
			ctx.emu,
			{ ...params, requestOptions: { maxRetries: 1, retryBudget: 0, timeout: 0.2 } },
			{ inputItems: [{ customer: 'c-1', step }], continueOnFail: true },
		);
		expect(run.calls.length).toBeGreaterThan(0);
		const text = run.serialized + JSON.stringify(run.json) + logged.join('\n');
		for (const secret of [
			ctx.emu.partner.masterToken,
			Buffer.from(`${ctx.emu.partner.masterToken}:`).toString('base64'),
			...[...ctx.emu.state.endUsers.values()].map((user) => user.permanentToken),
		])
			expect(text).not.toContain(secret);
		expect(text).not.toMatch(/eyJhbGci[\w-]*\.[\w-]+/);
	});
});
