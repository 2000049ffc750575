/**
 * Partner mode keeps every secret out of sight: the master token and each minted end-user token
 * (session JWTs and permanent tokens) never appear in an output, an error or the console, under
 * every fault kind of the emulator, on the token call and on the end user's own call.
 */
import {
	addUsers,
	partnerCredential,
	runPartner,
	TOKEN_PATH,
	usePartnerEmulator,
} from '../support/partnerSetup';
import {
	captureConsole,
	expectNoPartnerSecret,
	FAULT_REQUEST_OPTIONS,
	PARTNER_FAULT_KINDS,
} from '../support/secrets';

const ctx = usePartnerEmulator();

const FAULTS = PARTNER_FAULT_KINDS;
const TARGETS: Array<[string, RegExp | string]> = [
	['the token call', TOKEN_PATH],
	["the end user's call", '/solution/installation'],
];
const cases = TARGETS.flatMap(([target, path]) =>
	FAULTS.map(([fault, rule]) => [`${fault} on ${target}`, { ...rule, path, times: 10 }] as const),
);

describe('no token in outputs, errors or the console', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1', 'c-2']));
	const logged = captureConsole({ stdout: true });
	const expectNoSecret = (text: string) => expectNoPartnerSecret(ctx.emu, text);

	it.each(cases)('%s', async (_name, rule) => {
		ctx.emu.faults.add(rule);
		const run = await runPartner(
			ctx.emu,
			{
				resource: 'installation',
				operation: 'getAll',
				returnAll: true,
				requestOptions: FAULT_REQUEST_OPTIONS,
			},
			{ inputItems: [{ customer: 'c-1' }, { customer: 'c-2' }], continueOnFail: true },
		);
		expect(run.calls.length).toBeGreaterThan(0);
		expect(run.json.some((json) => 'error' in json)).toBe(true);
		expectNoSecret(run.serialized);
		expectNoSecret(JSON.stringify(run.json));
		expectNoSecret(logged.join('\n'));
	});

	it.each([
		['session tokens', 'session'],
		['permanent tokens', 'permanent'],
		['single token', 'token'],
		['both', 'both'],
	] as const)('End User → Create and Get Token without the opt-in (%s)', async (_name, variant) => {
		ctx.emu.setVariants({ partnerTokens: variant });
		const created = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'create' },
			{ inputItems: [{ customer: 'c-3' }] },
		);
		const got = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'getToken' },
			{ inputItems: [{ customer: 'c-1' }] },
		);
		expect(created.error).toBeUndefined();
		expect(got.json[0].hasToken).toBe(true);
		expectNoSecret(created.serialized + got.serialized + logged.join('\n'));
	});

	it('an error quoting the header of the master token sent as Basic base64("<token>:") does not surface it', async () => {
		ctx.emu.faults.add({ path: TOKEN_PATH, status: 400, echoAuthorization: true });
		const run = await runPartner(
			ctx.emu,
			{ resource: 'installation', operation: 'getAll', returnAll: true },
			{
				inputItems: [{ customer: 'c-1' }],
				credential: partnerCredential(ctx.emu, { headerForm: 'basicUsername' }),
			},
		);
		expect(run.error?.httpCode).toBe('400');
		expect(run.error?.message).toMatch(/Authorization: Basic \[redacted\]/);
		expectNoSecret(run.serialized + logged.join('\n'));
	});

	it('a rejected master token does not surface either', async () => {
		const wrong = 'wrong-master-token-0123456789';
		const run = await runPartner(
			ctx.emu,
			{ resource: 'installation', operation: 'getAll', returnAll: true },
			{
				inputItems: [{ customer: 'c-1' }],
				credential: partnerCredential(ctx.emu, { masterToken: wrong }),
			},
		);
		expect(run.error?.httpCode).toBe('401');
		expect(run.serialized + logged.join('\n')).not.toContain(wrong);
	});
});
