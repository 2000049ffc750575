/**
 * The trigger's poll at its edges, through n8n-core's PollContext against the emulator over HTTP:
 * its parameter checks, whose baseline it is (tokens with and without a subject), polls that follow
 * each other on one baseline, how many detail calls a poll makes, and list items without an id.
 */
import type {
	IDataObject,
	INodeParameters,
	IPollFunctions,
	NodeOperationError,
} from 'n8n-workflow';

import { startEmulator, type Emulator } from '../../emulator';
import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import type { InstallationRecord } from '../../emulator/types';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { EVENTS } from '../../nodes/AlbatoSolutionsTrigger/installationEvents';
import { INCIDENT_EVENTS } from '../../nodes/AlbatoSolutionsTrigger/incidentPoll';
import { USAGE_EVENTS } from '../../nodes/AlbatoSolutionsTrigger/usagePoll';
import { RUN_EVENTS } from '../../nodes/AlbatoSolutionsTrigger/runEvents';
import { pollContext } from '../../harness';

const ALL = [...EVENTS];
const LIST = 'GET /solution/installation';
const detail = (id: number | string) => `GET /solution/installation/${id}`;
/** An end user's token that is no JWT (as /wl hands out): the trigger cannot tell whose it is. */
const OPAQUE = 'opaque-permanent-token-of-user-1';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(async () => await emu.close());
beforeEach(() => {
	emu.reset();
	emu.state.permanentTokens.set(OPAQUE, 'user-1');
});

interface Setup {
	events?: unknown;
	solutionId?: unknown;
	mode?: 'trigger' | 'manual';
	token?: string;
}

function context(
	staticData: IDataObject,
	{ events = ALL, solutionId = '', mode = 'trigger', token = emu.token() }: Setup = {},
): IPollFunctions {
	return pollContext({
		nodeType: new AlbatoSolutionsTrigger(),
		parameters: {
			events,
			solutionId: { __rl: true, mode: 'id', value: solutionId },
		} as INodeParameters,
		credentials: { albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: token } },
		staticData,
		mode,
	});
}

/** One poll: [installationId, event] pairs, and the service calls it made. */
async function poll(ctx: IPollFunctions) {
	const first = emu.requests.length;
	const output = await new AlbatoSolutionsTrigger().poll.call(ctx);
	return {
		events: (output?.[0] ?? []).map((item) => [item.json.installationId, item.json.event]),
		calls: emu.requests.slice(first).map((request) => `${request.method} ${request.path}`),
	};
}

/** The rejection of one poll, and the calls made before it (none expected). */
async function refused(ctx: IPollFunctions) {
	const first = emu.requests.length;
	const error = (await new AlbatoSolutionsTrigger().poll.call(ctx).then(
		() => undefined,
		(e: unknown) => e,
	)) as NodeOperationError | undefined;
	return { error, calls: emu.requests.length - first };
}

const stored = (staticData: IDataObject) =>
	staticData['node:Albato Solutions Trigger'] as IDataObject;

async function install(solutionId: 101 | 102, title: string): Promise<number> {
	const response = await fetch(`${emu.baseUrl}/solution/${solutionId}/installation`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${emu.token()}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({
			credentialData: VALID_CREDENTIAL_DATA[solutionId],
			templateIds: solutionId === 101 ? [1011] : [1021],
			title,
		}),
	});
	expect(response.status).toBe(201);
	return ((await response.json()) as { data: { id: number } }).data.id;
}

/** An installation of user 1 written straight into the emulator's state, with fields changed. */
function plant(key: number, changes: Partial<Record<keyof InstallationRecord, unknown>>) {
	const record = {
		...emu.state.installations.get(5001)!,
		id: key,
		...changes,
	} as InstallationRecord;
	emu.state.installations.set(key, record);
}

describe('the trigger refuses bad parameters before any request', () => {
	const DESCRIPTION = `Events are ${[...EVENTS, ...RUN_EVENTS, ...INCIDENT_EVENTS, ...USAGE_EVENTS].join(', ')}`;

	it('no events: says so, and lists the events', async () => {
		const { error, calls } = await refused(context({}, { events: [] }));
		expect(error?.message).toBe('Choose at least one event to watch');
		expect(error?.description).toBe(DESCRIPTION);
		expect(calls).toBe(0);
	});

	it('unknown events: names each of them', async () => {
		const { error, calls } = await refused(
			context({}, { events: ['installationRemoved', 'installed', 'gone'] }),
		);
		expect(error?.message).toBe('Unknown event "installed", "gone"');
		expect(error?.description).toBe(DESCRIPTION);
		expect(calls).toBe(0);
	});

	it('a Solution locator with no value at all watches every installation (no "[object Object]")', async () => {
		const ctx = pollContext({
			nodeType: new AlbatoSolutionsTrigger(),
			parameters: { events: ALL, solutionId: { __rl: true, mode: 'list' } } as INodeParameters,
			credentials: { albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: emu.token() } },
			staticData: {},
			mode: 'trigger',
		});
		const first = emu.requests.length;
		await expect(new AlbatoSolutionsTrigger().poll.call(ctx)).resolves.toBeNull(); // the baseline
		expect(emu.requests.slice(first).map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /solution/installation',
		]);
	});

	it('a Solution that is no whole number: quotes it (at most 40 characters)', async () => {
		const bad = await refused(context({}, { solutionId: ' abc ' }));
		expect(bad.error?.message).toBe('Solution must be a solution ID (a whole number), got "abc"');
		expect(bad.error?.description).toBe(
			'Pick a solution from the list, give its ID, or leave it empty to watch all installations and runs',
		);
		expect(bad.calls).toBe(0);
		const long = await refused(context({}, { solutionId: 'x'.repeat(60) }));
		expect(long.error?.message).toBe(
			`Solution must be a solution ID (a whole number), got "${'x'.repeat(40)}"`,
		);
		expect((await refused(context({}, { solutionId: '0' }))).error?.message).toBe(
			'Solution must be a solution ID (a whole number), got "0"',
		);
	});
});

describe('the trigger reads good parameters in every form', () => {
	it('one event as a text instead of a list', async () => {
		const staticData: IDataObject = {};
		const ctx = context(staticData, { events: 'installationRemoved' });
		expect(await poll(ctx)).toEqual({ events: [], calls: [LIST] });
		emu.removeInstallation(5002);
		expect((await poll(ctx)).events).toEqual([[5002, 'installationRemoved']]);
	});

	it('a Solution ID with spaces around it, and an empty (null) Solution', async () => {
		const staticData: IDataObject = {};
		const ctx = context(staticData, { solutionId: ' 102 ' });
		expect((await poll(ctx)).events).toEqual([]);
		const other = await install(101, 'Not watched');
		const watched = await install(102, 'Watched');
		expect((await poll(ctx)).events).toEqual([[watched, 'installationCreated']]);
		expect(other).toBeLessThan(watched);

		const all: IDataObject = {};
		expect((await poll(context(all, { solutionId: null }))).events).toEqual([]);
		const next = await install(101, 'Any');
		expect((await poll(context(all, { solutionId: null }))).events).toEqual([
			[next, 'installationCreated'],
		]);
	});

	it('installation events together with a run event (the run event is not "unknown")', async () => {
		const staticData: IDataObject = {};
		const ctx = context(staticData, { events: ['installationRemoved', 'runFailed'] });
		expect((await poll(ctx)).events).toEqual([]);
		emu.removeInstallation(5001);
		expect((await poll(ctx)).events).toEqual([[5001, 'installationRemoved']]);
	});
});

describe('whose baseline it is', () => {
	it('a token without a subject is compared with nobody, and its owner is not stored', async () => {
		const staticData: IDataObject = {};
		expect((await poll(context(staticData))).events).toEqual([]);
		expect(stored(staticData).owner).toBe(`${emu.baseUrl} sub:user-1`);
		// The same end user through a token that does not say who: the baseline is kept, changes
		// reported.
		emu.removeInstallation(5002);
		expect((await poll(context(staticData, { token: OPAQUE }))).events).toEqual([
			[5002, 'installationRemoved'],
		]);
		expect('owner' in stored(staticData)).toBe(false);
		// Back to a token with a subject: still the same baseline (nothing invented, changes reported).
		emu.removeInstallation(5001);
		expect((await poll(context(staticData))).events).toEqual([[5001, 'installationRemoved']]);
		expect(stored(staticData).owner).toBe(`${emu.baseUrl} sub:user-1`);
	});

	it('a baseline recorded with a token without a subject stores no owner, poll after poll', async () => {
		const staticData: IDataObject = {};
		const ctx = context(staticData, { token: OPAQUE });
		expect((await poll(ctx)).events).toEqual([]);
		expect(Object.keys(stored(staticData))).toEqual(['installations']);
		const id = await install(101, 'Seen through the opaque token');
		expect((await poll(ctx)).events).toEqual([[id, 'installationCreated']]);
		expect(Object.keys(stored(staticData))).toEqual(['installations']);
	});
});

describe('polls one after the other on one baseline', () => {
	it('each poll of a workflow runs (the overlap guard is released), manual polls are never held', async () => {
		const manual = context({}, { mode: 'manual' });
		const trigger = new AlbatoSolutionsTrigger();
		const both = await Promise.all([trigger.poll.call(manual), trigger.poll.call(manual)]);
		expect(both.map((output) => output?.[0].length)).toEqual([1, 1]);

		const staticData: IDataObject = {};
		const ctx = context(staticData);
		expect((await poll(ctx)).events).toEqual([]);
		emu.removeInstallation(5002);
		expect((await poll(ctx)).events).toEqual([[5002, 'installationRemoved']]);
		emu.removeInstallation(5001);
		expect((await poll(ctx)).events).toEqual([[5001, 'installationRemoved']]);
	});
});

describe('static data is written only when it changed', () => {
	/** n8n saves a workflow's static data after a poll only when it was marked changed. */
	const changed = (staticData: IDataObject) =>
		(staticData as { __dataChanged?: boolean }).__dataChanged;

	it('a poll that finds nothing new leaves static data untouched (no save per poll)', async () => {
		const staticData: IDataObject = {};
		expect((await poll(context(staticData))).events).toEqual([]);
		expect(changed(staticData)).toBe(true); // the baseline is a change: the check can see one
		expect((await poll(context(staticData))).events).toEqual([]);
		expect(changed(staticData)).toBe(false);
		emu.removeInstallation(5002);
		expect((await poll(context(staticData))).events).toEqual([[5002, 'installationRemoved']]);
		expect(changed(staticData)).toBe(true);

		const opaque: IDataObject = {};
		expect((await poll(context(opaque, { token: OPAQUE }))).events).toEqual([]);
		expect((await poll(context(opaque, { token: OPAQUE }))).events).toEqual([]);
		expect(changed(opaque)).toBe(false);
	});
});

describe('how many detail calls a poll makes', () => {
	it('Started alone needs the status: asks the detail of each listed installation', async () => {
		emu.setVariants({ listWithoutStatus: true });
		const staticData: IDataObject = {};
		const ctx = context(staticData, { events: ['installationStarted'] });
		expect((await poll(ctx)).calls).toEqual([LIST, detail(5001), detail(5002)]);
		emu.state.installations.get(5002)!.status = 1;
		expect(await poll(ctx)).toEqual({
			events: [[5002, 'installationStarted']],
			calls: [LIST, detail(5001), detail(5002)],
		});
	});

	it('a detail without status is not completed from the list again', async () => {
		emu.setVariants({ listWithoutStatus: true, detailWithoutStatus: true });
		const staticData: IDataObject = {};
		const ctx = context(staticData, { events: ['installationCreated'] });
		expect((await poll(ctx)).calls).toEqual([LIST]);
		const id = await install(102, 'New');
		expect(await poll(ctx)).toEqual({
			events: [[id, 'installationCreated']],
			calls: [LIST, detail(id)],
		});
	});

	it('a Solution filter over a list without solutions: one detail each, to learn the solution', async () => {
		emu.setVariants({ listWithoutStatus: true });
		const id = await install(102, 'Other solution');
		const staticData: IDataObject = {};
		const ctx = context(staticData, { events: ['installationRemoved'], solutionId: '101' });
		expect((await poll(ctx)).calls).toEqual([LIST, detail(5001), detail(5002), detail(id)]);
		emu.removeInstallation(id);
		emu.removeInstallation(5002);
		expect(await poll(ctx)).toEqual({
			events: [[5002, 'installationRemoved']],
			calls: [LIST, detail(5002)],
		});
	});

	it('Fetch Test Event skips an unwatched solution without asking, and asks when the solution or status is missing', async () => {
		const id = await install(102, 'Newest, other solution');
		expect(await poll(context({}, { mode: 'manual', solutionId: '101' }))).toEqual({
			events: [[5002, 'installationCreated']],
			calls: [LIST],
		});
		expect(id).toBeGreaterThan(5002);
		plant(id, { solutionId: undefined, title: 'Newest, solution unknown' });
		const { events, calls } = await poll(context({}, { mode: 'manual' }));
		expect(events).toEqual([[id, 'installationCreated']]);
		expect(calls).toEqual([LIST, detail(id)]);
		// An unwatched solution is skipped by its listed solution, even when the list lacks its status.
		plant(id, { solutionId: 102, status: undefined, title: 'Newest, other solution, no status' });
		expect(await poll(context({}, { mode: 'manual', solutionId: '101' }))).toEqual({
			events: [[5002, 'installationCreated']],
			calls: [LIST],
		});
		// A listed solution without a status: the detail is asked for the status.
		plant(id, { status: undefined, title: 'Newest, status unknown' });
		expect(await poll(context({}, { mode: 'manual' }))).toEqual({
			events: [[id, 'installationCreated']],
			calls: [LIST, detail(id)],
		});
	});
});

describe('list items without an id', () => {
	it('are left out: not in the baseline, never an event, never a detail call', async () => {
		plant(9001, { id: null, title: 'No id' });
		plant(9002, { id: undefined, title: 'No id either' });
		emu.setVariants({ listWithoutStatus: true });
		const staticData: IDataObject = {};
		const ctx = context(staticData);
		expect((await poll(ctx)).calls).toEqual([LIST, detail(5001), detail(5002)]);
		expect(Object.keys(stored(staticData).installations as IDataObject)).toEqual(['5001', '5002']);
		emu.removeInstallation(5002);
		expect((await poll(ctx)).events).toEqual([[5002, 'installationRemoved']]);
	});
});
