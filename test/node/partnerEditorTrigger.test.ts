/**
 * Partner mode outside execute(): the editor's pickers (LoadOptionsContext), the polling trigger
 * (PollContext) and the credential's test request, all through n8n-core against the emulator.
 */
import { AlbatoPartnerApi } from '../../credentials/AlbatoPartnerApi.credentials';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { loadOptionsContext, pollContext, testCredentials } from '../../harness';
import {
	addUsers,
	installFor,
	partnerCredential,
	TOKEN_PATH,
	usePartnerEmulator,
} from './partnerSetup';

const ctx = usePartnerEmulator();
const calls = (from: number) => ctx.emu.requests.slice(from).map((r) => `${r.method} ${r.path}`);

beforeEach(async () => addUsers(ctx.emu, ['c-1']));

describe('pickers with the Partner API credential', () => {
	const picker = (endUserId: string) =>
		loadOptionsContext({
			nodeType: new AlbatoSolutions(),
			parameters: {
				authentication: 'partnerApi',
				endUserId,
				resource: 'installation',
				operation: 'create',
			},
			credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
		});

	it('list as the End User ID, minting its token once', async () => {
		const search = new AlbatoSolutions().methods.listSearch.searchSolutions;
		const first = await search.call(picker('c-1'));
		expect(first.results.map((r) => r.value)).toEqual(['101', '102', '103']);
		await search.call(picker('c-1'));
		expect(calls(0)).toEqual([
			'POST /wl/acme-saas/get-user-session-token',
			'GET /solution/apps',
			'GET /solution/apps',
		]);
		expect(ctx.emu.requests[1].user).toBe('acme-saas:c-1');
	});

	it('an expression End User ID: a message saying what to do, no request', async () => {
		const search = new AlbatoSolutions().methods.listSearch.searchSolutions;
		await expect(search.call(picker('={{ $json.customer }}'))).rejects.toThrow(
			/End User ID is an expression/,
		);
		expect(calls(0)).toEqual([]);
	});
});

describe('the trigger with the Partner API credential', () => {
	it("polls the end user's installations with the end user's token", async () => {
		const staticData = {};
		const trigger = new AlbatoSolutionsTrigger();
		const poll = () =>
			trigger.poll.call(
				pollContext({
					nodeType: trigger,
					parameters: {
						authentication: 'partnerApi',
						endUserId: 'c-1',
						events: ['installationCreated'],
						solutionId: { __rl: true, mode: 'id', value: '' },
					},
					credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
					staticData,
					mode: 'trigger',
				}),
			);
		expect(await poll()).toBeNull(); // the baseline
		// c-1 installs something elsewhere (with its own token), user-1's installations stay invisible.
		await installFor(ctx.emu, 'c-1', 'By c-1');
		const before = ctx.emu.requests.length;
		const events = await poll();
		expect(events?.[0].map((item) => item.json.title)).toEqual(['By c-1']);
		// The token minted for the baseline poll is still valid: no token call.
		expect(calls(before).filter((c) => TOKEN_PATH.test(c.split(' ')[1]))).toEqual([]);
	});
});

describe("the credential's test request", () => {
	const test = (extra = {}) =>
		testCredentials(new AlbatoPartnerApi(), partnerCredential(ctx.emu, extra));

	it('accepts a valid master token and creates nothing', async () => {
		const users = ctx.emu.state.endUsers.size;
		await expect(test({ baseUrl: `${ctx.emu.baseUrl}/` })).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(ctx.emu.requests.map((r) => [r.path, r.status])).toEqual([
			['/wl/acme-saas/get-user-session-token', 404],
		]);
		expect(ctx.emu.state.endUsers.size).toBe(users);
	});

	it.each([
		['a wrong master token', { masterToken: 'nope-nope-nope' }],
		['another partner name', { partnerName: 'someone-else' }],
		['a style the service does not accept', { basicAuthStyle: 'usernamePassword' }],
	])('fails for %s', async (_name, extra) => {
		ctx.emu.partner.set({ acceptStyles: 'raw' });
		expect((await test(extra)).status).toBe('Error');
	});

	it.each([429, 503])('fails on a %i: it proves nothing about the master token', async (status) => {
		ctx.emu.faults.add({ path: TOKEN_PATH, status });
		expect((await test()).status).toBe('Error');
	});

	it('passes with the username style when the service takes only that', async () => {
		ctx.emu.partner.set({ acceptStyles: 'usernamePassword' });
		expect((await test({ basicAuthStyle: 'usernamePassword' })).status).toBe('OK');
		expect((await test()).status).toBe('Error');
	});
});
