/**
 * One poll, whatever kinds of event it watches: the Events parameter is read once, one client is
 * built (the credential is read once), one overlap guard holds the whole poll, and every parameter
 * is checked before any request.
 */
import type { ICredentialDataDecryptedObject, IDataObject, IPollFunctions } from 'n8n-workflow';

import { pollContext } from '../../harness';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { namedPrincipalOf, principalOf } from '../../nodes/shared/readers/token';
import { addUsers, partnerCredential, usePartnerEmulator } from '../support/partnerSetup';

const ctx = usePartnerEmulator();

const BOTH = ['installationCreated', 'installationRemoved', 'runFailed', 'runSucceeded'];

/** A poll context that counts its reads of the Events parameter and of the credential. */
function counted(
	staticData: IDataObject,
	{ events = BOTH, partner = false, mode = 'trigger' as 'trigger' | 'manual' } = {},
) {
	const { emu } = ctx;
	const credentials: Record<string, ICredentialDataDecryptedObject> = partner
		? { albatoPartnerApi: partnerCredential(emu) }
		: { albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: emu.token() } };
	const poll: IPollFunctions = pollContext({
		nodeType: new AlbatoSolutionsTrigger(),
		parameters: {
			events,
			runInstallationId: '',
			solutionId: { __rl: true, mode: 'id', value: '' },
			...(partner ? { authentication: 'partnerApi', endUserId: 'c-7' } : {}),
		},
		credentials,
		staticData,
		mode,
	});
	const reads = { events: 0, credentials: 0 };
	const parameter = poll.getNodeParameter.bind(poll);
	poll.getNodeParameter = ((name: string, ...rest: unknown[]) => {
		if (name === 'events') reads.events++;
		return (parameter as (...args: unknown[]) => unknown)(name, ...rest);
	}) as typeof poll.getNodeParameter;
	const credential = poll.getCredentials.bind(poll);
	poll.getCredentials = (async (...args: Parameters<typeof credential>) => {
		reads.credentials++;
		return await credential(...args);
	}) as typeof poll.getCredentials;
	return { poll, reads };
}

const events = (output: Awaited<ReturnType<AlbatoSolutionsTrigger['poll']>>) =>
	(output?.[0] ?? []).map(({ json }) => [json.event, json.runId ?? json.installationId]);

describe('one poll of installation and run events', () => {
	const trigger = new AlbatoSolutionsTrigger();

	it.each([
		['an access token', false],
		['the Partner API', true],
	])('with %s: Events read once, the credential read once (one client)', async (_name, partner) => {
		if (partner) await addUsers(ctx.emu, ['c-7']);
		for (const mode of ['trigger', 'manual'] as const) {
			const { poll, reads } = counted({}, { partner, mode });
			await trigger.poll.call(poll).catch(() => undefined); // c-7 has no sample to fetch
			expect(reads).toEqual({ events: 1, credentials: 1 });
		}
	});

	it('two polls at once on one baseline: the second does nothing at all, each event comes once', async () => {
		const { emu } = ctx;
		const staticData: IDataObject = {};
		expect(await trigger.poll.call(counted(staticData).poll)).toBeNull();
		emu.removeInstallation(5002);
		const failed = emu.recordRun({
			bundleId: 7001,
			outcome: 'failed',
			dateCreated: '2024-06-05 10:00:00',
		});
		emu.faults.add({ method: 'GET', path: '/bundle/events', delayMs: 100, times: 2 });
		const first = emu.requests.length;
		// One context for both: n8n runs every Poll Times entry of a workflow with one PollFunctions.
		const { poll, reads } = counted(staticData);
		const both = await Promise.all([trigger.poll.call(poll), trigger.poll.call(poll)]);
		expect(both.map(events)).toEqual([
			[
				['installationRemoved', 5002],
				['runFailed', failed.id],
			],
			[],
		]);
		expect(reads.credentials).toBe(1);
		const calls = emu.requests.slice(first).map((request) => `${request.method} ${request.path}`);
		expect(calls.filter((call) => call === 'GET /bundle/events')).toHaveLength(1);
		expect(events(await trigger.poll.call(counted(staticData).poll))).toEqual([]);
	});

	it('an unknown event next to a run event is refused before any request', async () => {
		const first = ctx.emu.requests.length;
		const { poll } = counted({}, { events: ['runFailed', 'installed'] });
		await expect(trigger.poll.call(poll)).rejects.toThrow('Unknown event "installed"');
		expect(ctx.emu.requests.length).toBe(first);
	});
});

describe('whose baseline: namedPrincipalOf', () => {
	const jwt = (claims: object) =>
		`h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;

	it('is principalOf for a token that names its subject', () => {
		for (const token of [jwt({ sub: 'user-7' }), jwt({ sub: 7 })])
			expect(namedPrincipalOf('https://a', token)).toBe(principalOf('https://a', token));
	});

	it('is undefined for a token known only by its digest', () => {
		for (const token of ['opaque-token-123', jwt({ sub: '' }), jwt({}), 'h.%%%.s', ''])
			expect(namedPrincipalOf('https://a', token)).toBeUndefined();
	});
});
