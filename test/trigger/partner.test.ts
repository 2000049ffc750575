/**
 * The trigger with the Partner API credential, through n8n-core's PollContext against the emulator.
 */
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { pollContext } from '../../harness';
import {
	addUsers,
	partnerCredential,
	TOKEN_PATH,
	usePartnerEmulator,
} from '../support/partnerSetup';

const ctx = usePartnerEmulator();
const calls = (from: number) => ctx.emu.requests.slice(from).map((r) => `${r.method} ${r.path}`);

beforeEach(async () => addUsers(ctx.emu, ['c-1']));

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
		const token = (
			(await await fetch(`${ctx.emu.baseUrl}/wl/acme-saas/get-user-session-token`, {
				method: 'POST',
				headers: {
					Authorization: `Basic ${ctx.emu.partner.masterToken}`,
					'Content-Type': 'application/json',
				},
				body: JSON.stringify({ id: 'c-1' }),
			}).then((r) => r.json())) as { data: { sessionToken: string } }
		).data.sessionToken;
		const installed = await fetch(`${ctx.emu.baseUrl}/solution/101/installation`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({
				title: 'By c-1',
				templateIds: [1011],
				credentialData: {
					crm: 'hubspot',
					hubspotPipeline: 'sales',
					hubspotStage: 'new',
					mailer: 'mailchimp',
				},
			}),
		});
		expect(installed.status).toBe(201);
		const before = ctx.emu.requests.length;
		const events = await poll();
		expect(events?.[0].map((item) => item.json.title)).toEqual(['By c-1']);
		// The token minted for the baseline poll is still valid: no token call.
		expect(calls(before).filter((c) => TOKEN_PATH.test(c.split(' ')[1]))).toEqual([]);
	});
});
