/**
 * The Albato Partner API credential's Test button, as n8n runs it: the nodes' `testedBy` function
 * (n8n's CredentialTestContext, real HTTP to the emulator). It tries the forms Auto tries, passes
 * with the right token whichever form the service takes, and says what is wrong.
 */
import type { ICredentialType } from 'n8n-workflow';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { AlbatoPartnerApi } from '../../credentials/AlbatoPartnerApi.credentials';
import { VARIANT_CHOICES } from '../../emulator/render';
import { testCredential, testFunctionOf } from '../../harness/credentialTest';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import {
	addUsers,
	partnerCredential,
	masterForm,
	TOKEN_PATH,
	usePartnerEmulator,
} from '../support/partnerSetup';

const ctx = usePartnerEmulator();

beforeEach(async () => addUsers(ctx.emu, ['c-1']));

const test = (extra = {}) =>
	testCredential(new AlbatoPartnerApi(), partnerCredential(ctx.emu, extra));
const sent = () => ctx.emu.requests.map((r) => [r.path, r.status, r.auth]);
const TOKEN_CALL = '/wl/acme-saas/get-user-session-token';

describe("the partner credential's test", () => {
	it('has no test request of its own: n8n would use it first, and send one form only', () => {
		expect((new AlbatoPartnerApi() as ICredentialType).test).toBeUndefined();
	});

	it.each([
		['action node', new AlbatoSolutions()],
		['trigger', new AlbatoSolutionsTrigger()],
	])('the %s carries the function its testedBy names (n8n may ask either)', (_name, node) => {
		expect(testFunctionOf('albatoPartnerApi', [node])).toEqual(expect.any(Function));
	});

	it('passes with a valid master token on Auto, says the form, and creates nothing', async () => {
		const users = ctx.emu.state.endUsers.size;
		const result = await test({ baseUrl: `${ctx.emu.baseUrl}/` });
		expect(result).toEqual({
			status: 'OK',
			message: expect.stringMatching(
				/^Connection successful: the service took the master token as Basic Username \(on Auto/,
			),
		});
		expect(sent()).toEqual([[TOKEN_CALL, 404, 'basicUsername']]);
		expect(ctx.emu.state.endUsers.size).toBe(users);
	});

	it.each(VARIANT_CHOICES.strictAuth)(
		'passes with the right token on Auto under the %s reading',
		async (strictAuth) => {
			ctx.emu.setVariants({ strictAuth });
			const result = await test();
			expect(result.status).toBe('OK');
			const form = strictAuth === 'noBasicUsername' ? 'Basic Token' : 'Basic Username';
			expect(result.message).toContain(`took the master token as ${form}`);
		},
	);

	it('on Auto, refused as Basic username: tries Basic token, passes and says so', async () => {
		ctx.emu.partner.set({ acceptStyles: 'raw' });
		const result = await test();
		expect(result).toEqual({
			status: 'OK',
			message:
				'Connection successful: the service took the master token as Basic Token (on Auto, after a 401 as Basic Username; the node does the same)',
		});
		expect(sent()).toEqual([
			[TOKEN_CALL, 401, 'basicUsername'],
			[TOKEN_CALL, 404, 'basicRaw'],
		]);
	});

	it.each([
		['Auto', 'auto'],
		['Basic Token', 'basicRaw'],
		['Basic Username', 'basicUsername'],
	])(
		'a wrong token (%s): "most likely wrong" first, the service\'s words, no form advice',
		async (_name, headerForm) => {
			const masterToken = 'nope-nope-nope-wrong-token-0123456789';
			const result = await test({ masterToken, headerForm });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^The token is most likely wrong: /);
			expect(result.message).toContain('401 "Invalid master token"');
			expect(result.message).not.toMatch(/Send Master Token As/);
			expect(result.message).not.toContain(masterToken);
			expect(ctx.emu.requests).toHaveLength(2);
		},
	);

	it.each([
		['raw', 'usernamePassword', 'Basic Username', 'Basic Token'],
		['usernamePassword', 'raw', 'Basic Token', 'Basic Username'],
	])(
		'the service takes only %s, the form chosen is the other: says the right one, never the chosen one',
		async (accepted, chosen, chosenName, acceptedName) => {
			ctx.emu.partner.set({ acceptStyles: accepted as 'raw' | 'usernamePassword' });
			const result = await test({ headerForm: masterForm(chosen as 'raw' | 'usernamePassword') });
			expect(result.status).toBe('Error');
			expect(result.message).toBe(
				`The master token is right, but the service refused it as ${chosenName} (401) and took it as ${acceptedName}: set Send Master Token As to ${acceptedName}, or Auto.`,
			);
			expect((await test({ headerForm: masterForm(accepted as 'raw') })).status).toBe('OK');
		},
	);

	it('another partner name: the 403 with the service words', async () => {
		const result = await test({ partnerName: 'someone-else' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/not valid for Partner Name "someone-else" \(403: "The master token is not valid/,
		);
	});

	it.each([429, 503])('fails on a %i: it proves nothing about the master token', async (status) => {
		ctx.emu.faults.add({ path: TOKEN_PATH, status });
		const result = await test();
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(new RegExp(`answered ${status} .*proves nothing`));
	});

	it('an unreachable Base URL: "could not reach <url>: check Base URL"', async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		const result = await test({ baseUrl: `http://127.0.0.1:${port}/` });
		expect(result).toEqual({
			status: 'Error',
			message: `Could not reach http://127.0.0.1:${port}: check Base URL (ECONNREFUSED)`,
		});
	});

	it.each([
		['baseUrl', 'ftp://example.com', /^Base URL is not an http\(s\) address/],
		['partnerName', 'a/b', /^Partner Name is not valid/],
		['masterToken', '  ', /^Master Token is empty/],
	])('a bad %s fails before any request', async (field, value, message) => {
		const result = await test({ [field]: value });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(message) });
		expect(ctx.emu.requests).toEqual([]);
	});
});
