/**
 * The trigger's poll through n8n-core's real PollContext against the emulator over HTTP: state
 * changes between polls (install, start, pause, remove), the exact events emitted, and the exact
 * calls made for them.
 */
import { readFileSync } from 'fs';
import type {
	IDataObject,
	INodeParameters,
	IPollFunctions,
	NodeOperationError,
} from 'n8n-workflow';
import { join } from 'path';

import { startEmulator, type Emulator } from '../../emulator';
import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { pollContext, runWorkflow } from '../../harness';

const ALL = [
	'installationCreated',
	'installationStarted',
	'installationPaused',
	'installationRemoved',
];
const LIST = 'GET /solution/installation';
const detail = (id: number) => `GET /solution/installation/${id}`;

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(async () => await emu.close());
beforeEach(() => emu.reset());

interface Setup {
	events?: string[];
	solutionId?: string;
	mode?: 'trigger' | 'manual';
	user?: string;
}

function context(
	staticData: IDataObject,
	{ events = ALL, solutionId = '', mode = 'trigger', user }: Setup = {},
): IPollFunctions {
	return pollContext({
		nodeType: new AlbatoSolutionsTrigger(),
		parameters: { events, solutionId: { __rl: true, mode: 'id', value: solutionId } },
		credentials: {
			albatoSolutionsApi: {
				baseUrl: emu.baseUrl,
				accessToken: emu.token(user ? { sub: user } : undefined),
			},
		},
		staticData,
		mode,
	});
}

/** One poll: the emitted items (null when none) and the service calls it made. */
async function poll(ctx: IPollFunctions) {
	const first = emu.requests.length;
	const output = await new AlbatoSolutionsTrigger().poll.call(ctx);
	return {
		events: output ? output[0].map((item) => item.json) : null,
		calls: emu.requests.slice(first).map((request) => `${request.method} ${request.path}`),
	};
}

/** [installationId, event] pairs: the order and content that matter most. */
const pairs = (events: IDataObject[] | null) =>
	(events ?? []).map((event) => [event.installationId, event.event]);

/** Changes the service's state through its own HTTP interface, as another client would. */
async function call(method: string, path: string, body?: IDataObject): Promise<IDataObject> {
	const response = await fetch(emu.baseUrl + path, {
		method,
		headers: { Authorization: `Bearer ${emu.token()}`, 'Content-Type': 'application/json' },
		body: body && JSON.stringify(body),
	});
	const parsed = (await response.json()) as { data: IDataObject };
	expect(response.status).toBeLessThan(300);
	return parsed.data;
}

const install = async (
	solutionId: number,
	title: string,
	templateIds = solutionId === 101 ? [1011] : [1021],
) =>
	Number(
		(
			await call('POST', `/solution/${solutionId}/installation`, {
				credentialData: VALID_CREDENTIAL_DATA[solutionId],
				templateIds,
				title,
			})
		).id,
	);
const start = async (id: number) => await call('PLAY', `/solution/installation/${id}`);
const pause = async (id: number) => await call('PAUSE', `/solution/installation/${id}`);

/** Static data as n8n stores it between executions: saved as JSON, loaded again. */
const reload = (staticData: IDataObject): IDataObject =>
	JSON.parse(JSON.stringify(staticData)) as IDataObject;

describe('Albato Solutions Trigger: list with status (one call per poll)', () => {
	it('records a baseline first, then emits each change once, ordered by id then event', async () => {
		const staticData: IDataObject = {};

		const baseline = await poll(context(staticData));
		expect(baseline).toEqual({ events: null, calls: [LIST] });
		expect(staticData['node:Albato Solutions Trigger']).toEqual({
			installations: {
				5001: { status: 1, title: 'Leads for ACME', solutionId: 101 },
				5002: { status: 0, title: 'Leads for Globex', solutionId: 101 },
			},
			owner: `${emu.baseUrl} sub:user-1`, // whose baseline it is (no token)
		});

		const created = await install(101, 'Leads for Initech');
		expect(created).toBe(6001);
		const afterInstall = await poll(context(staticData));
		expect(afterInstall.calls).toEqual([LIST]);
		expect(afterInstall.events).toEqual([
			{
				event: 'installationCreated',
				installationId: 6001,
				solutionId: 101,
				title: 'Leads for Initech',
				status: 0,
				previousStatus: null,
				installation: expect.objectContaining({
					id: 6001,
					appId: 101,
					solutionId: 101,
					title: 'Leads for Initech',
					status: 0,
				}),
			},
		]);

		await start(6001);
		await pause(5001);
		const afterStatus = await poll(context(staticData));
		expect(afterStatus.calls).toEqual([LIST]);
		expect(afterStatus.events).toEqual([
			expect.objectContaining({
				event: 'installationPaused',
				installationId: 5001,
				status: 0,
				previousStatus: 1,
			}),
			expect.objectContaining({
				event: 'installationStarted',
				installationId: 6001,
				status: 1,
				previousStatus: 0,
			}),
		]);

		emu.removeInstallation(5002);
		const afterRemove = await poll(context(staticData));
		expect(afterRemove).toEqual({
			calls: [LIST, detail(5002)], // missing from the list; its detail's 404 confirms the removal
			events: [
				{
					event: 'installationRemoved',
					installationId: 5002,
					solutionId: 101,
					title: 'Leads for Globex',
					status: null,
					previousStatus: 0,
					installation: { id: 5002, title: 'Leads for Globex', status: 0, solutionId: 101 },
				},
			],
		});

		expect(await poll(context(staticData))).toEqual({ events: null, calls: [LIST] });
	});

	it('emits several changes of one poll together, and a new active installation as created then started', async () => {
		const staticData: IDataObject = {};
		await poll(context(staticData));
		const a = await install(101, 'A');
		const b = await install(102, 'B');
		await start(b);
		await start(5002);
		emu.removeInstallation(5001);
		const { events, calls } = await poll(context(staticData));
		expect(calls).toEqual([LIST, detail(5001)]);
		expect(pairs(events)).toEqual([
			[5001, 'installationRemoved'],
			[5002, 'installationStarted'],
			[a, 'installationCreated'],
			[b, 'installationCreated'],
			[b, 'installationStarted'],
		]);
	});

	it('emits only the chosen events, but keeps the baseline whole', async () => {
		const staticData: IDataObject = {};
		const events = ['installationStarted'];
		await poll(context(staticData, { events }));
		const id = await install(101, 'Quiet');
		await pause(5001);
		expect((await poll(context(staticData, { events }))).events).toBeNull();
		await start(id);
		await start(5001);
		expect(pairs((await poll(context(staticData, { events }))).events)).toEqual([
			[5001, 'installationStarted'],
			[id, 'installationStarted'],
		]);
	});

	it('filters by solution, by the solutionId or appId the installations carry', async () => {
		const staticData: IDataObject = {};
		const only102 = { solutionId: '102' };
		await poll(context(staticData, only102));
		await install(101, 'Other solution');
		await pause(5001);
		expect(await poll(context(staticData, only102))).toEqual({ events: null, calls: [LIST] });
		const mine = await install(102, 'Orders');
		expect(pairs((await poll(context(staticData, only102))).events)).toEqual([
			[mine, 'installationCreated'],
		]);

		// Ids as numeric strings: the filter and the ids still match.
		emu.setVariants({ stringIds: true });
		await start(mine);
		await start(5001);
		const { events, calls } = await poll(context(staticData, only102));
		expect(calls).toEqual([LIST]);
		expect(pairs(events)).toEqual([[mine, 'installationStarted']]);
		expect(events![0]).toMatchObject({ solutionId: 102, installation: { appId: 102 } }); // ids read as numbers (readers/shapes.ts)
	});
});

describe('Albato Solutions Trigger: restarts and failures', () => {
	it('emits nothing twice after a restart (new context, same static data)', async () => {
		let staticData: IDataObject = {};
		await poll(context(staticData));
		const id = await install(101, 'Once');
		expect(pairs((await poll(context(staticData))).events)).toEqual([[id, 'installationCreated']]);

		staticData = reload(staticData);
		expect((await poll(context(staticData))).events).toBeNull();

		// A change while the workflow was stopped is reported once after it starts again.
		await start(id);
		staticData = reload(staticData);
		expect(pairs((await poll(context(staticData))).events)).toEqual([[id, 'installationStarted']]);
		staticData = reload(staticData);
		expect((await poll(context(staticData))).events).toBeNull();
	});

	it('keeps the baseline when a poll fails, so the next poll reports the change', async () => {
		const staticData: IDataObject = {};
		await poll(context(staticData));
		const saved = reload(staticData);
		await pause(5001);
		emu.faults.add({ method: 'GET', path: '/solution/installation', status: 500 });
		await expect(poll(context(staticData))).rejects.toThrow();
		expect(reload(staticData)).toEqual(saved);
		expect(pairs((await poll(context(staticData))).events)).toEqual([[5001, 'installationPaused']]);
	});

	it('rejects a poll without events, before any call', async () => {
		const first = emu.requests.length;
		await expect(poll(context({}, { events: [] }))).rejects.toThrow(
			'Choose at least one event to watch',
		);
		expect(emu.requests.length).toBe(first);
	});
});

describe('Albato Solutions Trigger: list without status (detail calls only where needed)', () => {
	/** Counts the requests in flight through the context's own HTTP helper. */
	function measured(ctx: IPollFunctions) {
		const inner = ctx.helpers.httpRequestWithAuthentication;
		const stats = { inFlight: 0, max: 0 };
		ctx.helpers.httpRequestWithAuthentication = async function (
			this: IPollFunctions,
			...args: Parameters<typeof inner>
		) {
			stats.max = Math.max(stats.max, ++stats.inFlight);
			try {
				return await inner.apply(this, args);
			} finally {
				stats.inFlight--;
			}
		};
		return { ctx, stats };
	}

	it('asks for each detail at the baseline (at most 4 at once), then for all each poll', async () => {
		const ids = [];
		for (let n = 1; n <= 6; n++) ids.push(await install(101, `Bulk ${n}`));
		emu.setVariants({ listWithoutStatus: true });
		emu.faults.add({
			method: 'GET',
			path: /^\/solution\/installation\/\d+$/,
			delayMs: 25,
			times: 1000,
		});
		const staticData: IDataObject = {};

		const { ctx, stats } = measured(context(staticData));
		const baseline = await poll(ctx);
		expect(baseline.events).toBeNull();
		expect(baseline.calls[0]).toBe(LIST);
		expect(baseline.calls.slice(1).sort()).toEqual([5001, 5002, ...ids].map(detail).sort());
		expect(stats.max).toBe(4);

		await start(ids[0]);
		const newId = await install(102, 'Fresh');
		const next = await poll(context(staticData));
		expect(next.calls).toHaveLength(1 + 9);
		expect(pairs(next.events)).toEqual([
			[ids[0], 'installationStarted'],
			[newId, 'installationCreated'],
		]);
		// The installation is the detail, merged over the list item.
		expect(next.events![1]).toMatchObject({
			solutionId: 102,
			status: 0,
			installation: { id: newId, title: 'Fresh', solutionId: 102, status: 0 },
		});
	});

	it('without start/pause events, asks only for the details of new installations', async () => {
		emu.setVariants({ listWithoutStatus: true });
		const staticData: IDataObject = {};
		const events = ['installationCreated', 'installationRemoved'];
		expect(await poll(context(staticData, { events }))).toEqual({ events: null, calls: [LIST] });
		const id = await install(101, 'New one');
		emu.removeInstallation(5001);
		const { events: emitted, calls } = await poll(context(staticData, { events }));
		expect(calls).toEqual([LIST, detail(id), detail(5001)]);
		expect(pairs(emitted)).toEqual([
			[5001, 'installationRemoved'],
			[id, 'installationCreated'],
		]);
		expect(await poll(context(staticData, { events }))).toEqual({ events: null, calls: [LIST] });
	});

	it('with a solution filter, learns each solution once and then skips the other solutions', async () => {
		const other = await install(102, 'Orders');
		emu.setVariants({ listWithoutStatus: true });
		const staticData: IDataObject = {};
		const only102 = { solutionId: '102' };

		const baseline = await poll(context(staticData, only102));
		expect(baseline.calls[0]).toBe(LIST);
		expect(baseline.calls.slice(1).sort()).toEqual([5001, 5002, other].map(detail).sort());

		await start(other);
		await pause(5001);
		const next = await poll(context(staticData, only102));
		expect(next.calls).toEqual([LIST, detail(other)]);
		expect(pairs(next.events)).toEqual([[other, 'installationStarted']]);
	});

	it('treats an installation removed between the list and its detail (404) as removed', async () => {
		emu.setVariants({ listWithoutStatus: true });
		const staticData: IDataObject = {};
		await poll(context(staticData));
		// As if 5002 were removed right after the list call.
		emu.faults.add({ method: 'GET', path: '/solution/installation/5002', status: 404 });
		const { events, calls } = await poll(context(staticData));
		expect(calls[0]).toBe(LIST);
		expect(calls.slice(1).sort()).toEqual([detail(5001), detail(5002)]);
		expect(pairs(events)).toEqual([[5002, 'installationRemoved']]);
	});
});

describe('Albato Solutions Trigger: Fetch Test Event (manual mode)', () => {
	it('returns the newest installation and leaves the baseline alone', async () => {
		const staticData: IDataObject = {};
		const { events, calls } = await poll(context(staticData, { mode: 'manual' }));
		expect(calls).toEqual([LIST]);
		expect(events).toEqual([
			{
				event: 'installationCreated',
				installationId: 5002,
				solutionId: 101,
				title: 'Leads for Globex',
				status: 0,
				previousStatus: null,
				installation: expect.objectContaining({ id: 5002, status: 0 }),
				sample: true,
				sampleNote: expect.stringMatching(/^A sample: /),
			},
		]);
		expect(staticData).toEqual({});

		// With a baseline in place, a test fetch neither changes it nor swallows a pending change.
		await poll(context(staticData));
		const saved = reload(staticData);
		const id = await install(101, 'Newest');
		expect(pairs((await poll(context(staticData, { mode: 'manual' }))).events)).toEqual([
			[id, 'installationCreated'],
		]);
		expect(reload(staticData)).toEqual(saved);
		expect(pairs((await poll(context(staticData))).events)).toEqual([[id, 'installationCreated']]);
	});

	it('honours the solution filter and the chosen events, with one detail call when the list lacks status', async () => {
		const id = await install(102, 'Orders');
		await start(id);
		await install(101, 'Newer, other solution');
		emu.setVariants({ listWithoutStatus: true });
		const { events, calls } = await poll(
			context(
				{},
				{
					mode: 'manual',
					solutionId: '102',
					events: ['installationPaused', 'installationStarted'],
				},
			),
		);
		expect(pairs(events)).toEqual([[id, 'installationStarted']]);
		expect(calls).toEqual([LIST, detail(id + 1), detail(id)]);
	});

	it('says clearly when there is no installation to show', async () => {
		const noInstallations = context({}, { mode: 'manual', user: 'user-without-installations' });
		await expect(poll(noInstallations)).rejects.toThrow('No installations found for this end user');
		const error = (await poll(context({}, { mode: 'manual', solutionId: '103' })).catch(
			(e: NodeOperationError) => e,
		)) as NodeOperationError;
		expect(error.message).toBe('No installations of solution 103 found for this end user');
		expect(error.description).toMatch(/Installation → Create/);
	});
});

describe('examples/installation-trigger.workflow.json', () => {
	it('runs: the trigger fetches a test event, the next node reads that installation with its automations', async () => {
		const workflow = JSON.parse(
			readFileSync(join(__dirname, '../../examples/installation-trigger.workflow.json'), 'utf8'),
		) as {
			nodes: Array<{ name: string; type: string; parameters: INodeParameters }>;
		};
		const [trigger, get] = workflow.nodes;
		expect(trigger.type).toBe('n8n-nodes-albato-solutions.albatoSolutionsTrigger');
		const credentials = { albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: emu.token() } };

		const id = await install(102, 'Orders for the example');
		const sample = await new AlbatoSolutionsTrigger().poll.call(
			pollContext({
				nodeType: new AlbatoSolutionsTrigger(),
				parameters: trigger.parameters,
				credentials,
				mode: 'manual',
			}),
		);
		expect(sample![0]).toHaveLength(1);
		expect(sample![0][0].json).toMatchObject({ event: 'installationCreated', installationId: id });

		const result = await runWorkflow({
			nodeTypes: [new AlbatoSolutions()],
			nodes: [get],
			inputItems: [sample![0][0].json],
			credentials,
		});
		expect(result.error(get.name)).toBeUndefined();
		const [item] = result.output(get.name);
		expect(item.json).toMatchObject({ id, title: 'Orders for the example' });
		expect(Object.keys(item.json.bundles as IDataObject)).toHaveLength(1);
	});
});
