/**
 * A trigger upgraded in place: the static data below is exactly what the trigger wrote before its
 * poll was split into kinds (commit 03a2652: poll.ts, pollAll.ts, runPoll.ts), captured from one
 * baseline poll with every event chosen. The poll of today reads it as its own baseline: it
 * re-emits nothing already seen, loses nothing that happened since, and keeps the stored shape.
 */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { pollContext } from '../../harness';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { addUsers, partnerCredential, usePartnerEmulator } from '../support/partnerSetup';

const ctx = usePartnerEmulator();

const EVENTS = [
	'installationCreated',
	'installationStarted',
	'installationPaused',
	'installationRemoved',
	'runFailed',
	'runSucceeded',
];
const NODE = 'node:Albato Solutions Trigger';
/** An end user's token that is no JWT: the trigger cannot tell whose it is (no owner stored). */
const OPAQUE = 'opaque-permanent-token-of-user-1';
/** The run in progress at the baseline poll (the emulator's next run id after a reset). */
const RUNNING = 3061464105;

const installations = {
	5001: { status: 1, title: 'Leads for ACME', solutionId: 101 },
	5002: { status: 0, title: 'Leads for Globex', solutionId: 101 },
};
const known = { 3061464101: 1714557600000, 3061464102: 1714561200000, 3061464103: 1714642200000 };

/** What the trigger before the split stored, by credential (base URL of this emulator). */
const SAVED = {
	jwt: (base: string) => ({
		[NODE]: {
			installations,
			owner: `${base} sub:user-1`,
			runEvents: {
				scope: `${base} sub:user-1\n`,
				known,
				pending: { [RUNNING]: 1717232400000 },
			},
		},
	}),
	opaque: () => ({
		[NODE]: {
			installations,
			runEvents: { scope: '\n', known, pending: { [RUNNING]: 1717232400000 } },
		},
	}),
	partner: (base: string) => ({
		[NODE]: {
			installations: { 5002: installations[5002] },
			owner: `${base}\u0000acme-saas\u0000c-7`,
			runEvents: {
				scope: `${base}\u0000acme-saas\u0000c-7\n`,
				known: { 3061464103: 1714642200000 },
				pending: {},
			},
		},
	}),
};

/** One poll of every event, on static data as n8n loads it (JSON); the [event, id] pairs. */
async function poll(
	staticData: IDataObject,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	parameters: IDataObject = {},
) {
	const trigger = new AlbatoSolutionsTrigger();
	const output = await trigger.poll.call(
		pollContext({
			nodeType: trigger,
			parameters: {
				events: EVENTS,
				runInstallationId: '',
				solutionId: { __rl: true, mode: 'id', value: '' },
				...parameters,
			},
			credentials,
			staticData,
			mode: 'trigger',
		}),
	);
	return (output?.[0] ?? []).map(({ json }) => [
		json.event,
		json.installationId ?? null,
		json.runId,
	]);
}

const reload = (staticData: object): IDataObject =>
	JSON.parse(JSON.stringify(staticData)) as IDataObject;

/** The run in progress at the baseline, still running now. */
const stillRunning = () =>
	ctx.emu.recordRun({ bundleId: 7002, outcome: 'inProgress', dateCreated: '2024-06-01 09:00:00' });

describe('static data saved before the split', () => {
	it.each([
		['a token with a subject', 'jwt'],
		['a token without a subject', 'opaque'],
	] as const)('%s: nothing re-emitted, nothing lost', async (_name, saved) => {
		const { emu } = ctx;
		emu.state.permanentTokens.set(OPAQUE, 'user-1');
		const token = saved === 'jwt' ? emu.token() : OPAQUE;
		const credentials = { albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: token } };
		expect(stillRunning().id).toBe(RUNNING);
		const staticData = reload(SAVED[saved](emu.baseUrl));
		expect(await poll(staticData, credentials)).toEqual([]);
		expect(reload(staticData)).toEqual(reload(SAVED[saved](emu.baseUrl)));

		emu.removeInstallation(5002);
		const failed = emu.recordRun({
			bundleId: 7001,
			outcome: 'failed',
			dateCreated: '2024-06-05 10:00:00',
		});
		emu.runs().find((run) => run.id === RUNNING)!.status = 1; // the running one succeeded
		const [removed, ...runs] = await poll(staticData, credentials);
		expect(removed).toEqual(['installationRemoved', 5002, undefined]);
		expect(runs.sort((a, b) => Number(a[2]) - Number(b[2]))).toEqual([
			['runSucceeded', 5001, RUNNING],
			['runFailed', 5001, failed.id],
		]);
		expect(await poll(staticData, credentials)).toEqual([]);
	});

	it('partner mode: the same End User ID keeps its baselines', async () => {
		const { emu } = ctx;
		await addUsers(emu, ['c-7']);
		emu.state.installations.get(5002)!.userId = `${emu.partner.name}:c-7`;
		const credentials = { albatoPartnerApi: partnerCredential(emu) };
		const parameters = { authentication: 'partnerApi', endUserId: 'c-7' };
		const staticData = reload(SAVED.partner(emu.baseUrl));
		expect(await poll(staticData, credentials, parameters)).toEqual([]);
		expect(reload(staticData)).toEqual(reload(SAVED.partner(emu.baseUrl)));

		emu.state.installations.get(5002)!.status = 1;
		const failed = emu.recordRun({
			bundleId: 7003,
			outcome: 'failed',
			dateCreated: '2024-06-05 10:00:00',
		});
		expect(await poll(staticData, credentials, parameters)).toEqual([
			['installationStarted', 5002, undefined],
			['runFailed', 5002, failed.id],
		]);
	});
});
