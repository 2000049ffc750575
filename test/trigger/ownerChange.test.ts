/**
 * The trigger's baseline belongs to one end user: when the credential (or End User ID) switches to
 * another end user, their installations are not "created" and the previous user's are not
 * "removed". Through n8n-core's PollContext against the emulator over HTTP.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { startEmulator, type Emulator } from '../../emulator';
import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { pollContext } from '../../harness';

const ALL = [
	'installationCreated',
	'installationStarted',
	'installationPaused',
	'installationRemoved',
];

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(async () => await emu.close());
beforeEach(() => emu.reset());

function context(staticData: IDataObject, user: string): IPollFunctions {
	return pollContext({
		nodeType: new AlbatoSolutionsTrigger(),
		parameters: { events: ALL, solutionId: { __rl: true, mode: 'id', value: '' } },
		credentials: {
			albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: emu.token({ sub: user }) },
		},
		staticData,
		mode: 'trigger',
	});
}

async function poll(staticData: IDataObject, user: string) {
	const output = await new AlbatoSolutionsTrigger().poll.call(context(staticData, user));
	return (output?.[0] ?? []).map((item) => [item.json.installationId, item.json.event]);
}

it('a switch to another end user starts a new baseline: no invented Created or Removed events', async () => {
	const staticData: IDataObject = {};
	expect(await poll(staticData, 'user-1')).toEqual([]); // baseline: 5001, 5002
	expect(await poll(staticData, 'user-2')).toEqual([]); // user 2 has 5003; 5001 and 5002 are not theirs
	// From then on, user 2's real changes are reported once.
	const response = await fetch(`${emu.baseUrl}/solution/102/installation`, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${emu.token({ sub: 'user-2' })}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({
			credentialData: VALID_CREDENTIAL_DATA[102],
			templateIds: [1021],
			title: 'New for user 2',
		}),
	});
	const { data } = (await response.json()) as { data: { id: number } };
	expect(await poll(staticData, 'user-2')).toEqual([[data.id, 'installationCreated']]);
	expect(await poll(staticData, 'user-2')).toEqual([]);
});

it('the same end user with a new token keeps the baseline (changes in between are reported)', async () => {
	const staticData: IDataObject = {};
	expect(await poll(staticData, 'user-1')).toEqual([]);
	emu.removeInstallation(5002);
	expect(await poll(staticData, 'user-1')).toEqual([[5002, 'installationRemoved']]);
});

it('two polls at once on one baseline (Poll Times that fire together, or a slow poll overlapped by the next): each event once', async () => {
	const staticData: IDataObject = {};
	expect(await poll(staticData, 'user-1')).toEqual([]);
	emu.removeInstallation(5002);
	emu.faults.add({ method: 'GET', path: '/solution/installation', delayMs: 100, times: 2 });
	// One context for both, as n8n's ActiveWorkflows runs every Poll Times entry with one
	// PollFunctions.
	const shared = context(staticData, 'user-1');
	const trigger = new AlbatoSolutionsTrigger();
	const [a, b] = (await Promise.all([trigger.poll.call(shared), trigger.poll.call(shared)])).map(
		(output) => (output?.[0] ?? []).map((item) => [item.json.installationId, item.json.event]),
	);
	expect([...a, ...b]).toEqual([[5002, 'installationRemoved']]);
	expect(await poll(staticData, 'user-1')).toEqual([]);
});
