/** The harness itself: n8n-core's engine + our credential class, real HTTP over loopback. */
import http from 'http';
import type { AddressInfo } from 'net';
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { AlbatoSolutionsApi } from '../credentials/AlbatoSolutionsApi.credentials';
import {
	INPUT_NODE,
	loadOptionsContext,
	pollContext,
	runWorkflow,
	testCredentials,
} from '../harness';

// --- A loopback server that records what arrives ------------------------------------------------

interface Received {
	url: string;
	authorization?: string;
}
const received: Received[] = [];
let events: IDataObject[] = []; // what GET /events returns
let baseUrl = '';

const server = http.createServer((req, res) => {
	received.push({ url: req.url ?? '', authorization: req.headers.authorization });
	const url = new URL(req.url ?? '/', 'http://x');
	res.setHeader('content-type', 'application/json');
	if (url.pathname === '/fail') {
		res.statusCode = 500;
		res.end(JSON.stringify({ message: 'boom' }));
	} else if (url.pathname === '/events') {
		const since = Number(url.searchParams.get('since') ?? 0);
		res.end(JSON.stringify(events.filter((e) => (e.id as number) > since)));
	} else if (url.pathname === '/options') {
		res.end(
			JSON.stringify([
				{ id: 'a', title: 'Alpha' },
				{ id: 'b', title: 'Beta' },
			]),
		);
	} else {
		res.end(JSON.stringify({ path: url.pathname, query: Object.fromEntries(url.searchParams) }));
	}
});

beforeAll(async () => {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => await new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
	received.length = 0;
	events = [];
});

// A token that is not a JWT goes as Basic username on Auto: Bearer pinned, as these tests check it.
const credentials = () => ({
	albatoSolutionsApi: { baseUrl, accessToken: 'tok-123', headerForm: 'bearer' },
});

// --- Tiny test nodes -----------------------------------------------------------------------------

const base = {
	group: ['transform'],
	version: 1,
	description: 'Harness test node',
	credentials: [{ name: 'albatoSolutionsApi', required: true }],
} satisfies Partial<INodeTypeDescription>;

/** GETs `path` per item through httpRequestWithAuthentication; honours continueOnFail. */
class Fetcher implements INodeType {
	description: INodeTypeDescription = {
		...base,
		displayName: 'Fetcher',
		name: 'fetcher',
		defaults: { name: 'Fetcher' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Path', name: 'path', type: 'string', default: '/things' },
			{
				displayName: 'Choice',
				name: 'choice',
				type: 'options',
				default: '',
				typeOptions: { loadOptionsMethod: 'choices' },
				options: [],
			},
		],
	};

	methods = {
		loadOptions: {
			async choices(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('albatoSolutionsApi');
				const path = this.getCurrentNodeParameter('path') as string;
				const rows = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					'albatoSolutionsApi',
					{
						url: `${baseUrl}${path}`,
						method: 'GET',
					},
				)) as Array<{ id: string; title: string }>;
				return rows.map((r) => ({ name: r.title, value: r.id }));
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('albatoSolutionsApi');
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			try {
				const json = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					'albatoSolutionsApi',
					{
						url: `${baseUrl}${this.getNodeParameter('path', i) as string}`,
						method: 'GET',
					},
				)) as IDataObject;
				out.push({ json, pairedItem: { item: i } });
			} catch (error) {
				if (!this.continueOnFail())
					throw new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
				out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
			}
		}
		return [out];
	}
}

/** Emits events newer than the last one seen, remembered in the node's static data. */
class Poller implements INodeType {
	description: INodeTypeDescription = {
		...base,
		displayName: 'Poller',
		name: 'poller',
		polling: true,
		defaults: { name: 'Poller' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Limit', name: 'limit', type: 'number', default: 10 }],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const state = this.getWorkflowStaticData('node');
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('albatoSolutionsApi');
		const rows = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			'albatoSolutionsApi',
			{
				url: `${baseUrl}/events`,
				qs: { since: (state.lastId as number) ?? 0 },
				method: 'GET',
			},
		)) as IDataObject[];
		if (this.getMode() === 'manual')
			return rows.length ? [this.helpers.returnJsonArray(rows.slice(-1))] : null;
		if (!rows.length) return null;
		state.lastId = rows[rows.length - 1].id;
		return [this.helpers.returnJsonArray(rows.slice(0, this.getNodeParameter('limit') as number))];
	}
}

// --- Tests ---------------------------------------------------------------------------------------

describe('runWorkflow', () => {
	it('runs a node per input item: bearer header from the credential class, expressions, pairedItem', async () => {
		const { output, error, run } = await runWorkflow({
			nodeTypes: [new Fetcher()],
			nodes: [
				{
					name: 'Fetch',
					type: 'n8n-nodes-albato-solutions.fetcher',
					parameters: { path: '=/things/{{ $json.id }}' },
				},
			],
			credentials: credentials(),
			inputItems: [{ id: 7 }, { id: 8 }],
		});

		expect(error('Fetch')).toBeUndefined();
		expect(run.status).toBe('success');
		expect(received.map((r) => r.url)).toEqual(['/things/7', '/things/8']);
		expect(received.every((r) => r.authorization === 'Bearer tok-123')).toBe(true);
		expect(output('Fetch')).toEqual([
			expect.objectContaining({ json: { path: '/things/7', query: {} }, pairedItem: { item: 0 } }),
			expect.objectContaining({ json: { path: '/things/8', query: {} }, pairedItem: { item: 1 } }),
		]);
		expect(output(INPUT_NODE).map((i) => i.json)).toEqual([{ id: 7 }, { id: 8 }]);
	});

	it('starts from the node itself with one empty item when no inputItems are given, by short type name', async () => {
		const { output } = await runWorkflow({
			nodeTypes: [new Fetcher()],
			nodes: [{ name: 'Fetch', type: 'fetcher', parameters: { path: '/one' } }],
			credentials: credentials(),
		});
		expect(output('Fetch').map((i) => i.json.path)).toEqual(['/one']);
	});

	it('resolves $(node) references and chains nodes in order', async () => {
		const { output } = await runWorkflow({
			nodeTypes: [new Fetcher()],
			nodes: [
				{ name: 'First', type: 'fetcher', parameters: { path: '=/a/{{ $json.id }}' } },
				{
					name: 'Second',
					type: 'fetcher',
					parameters: { path: "=/b{{ $json.path }}/{{ $('Input').item.json.id }}" },
				},
			],
			credentials: credentials(),
			inputItems: [{ id: 1 }],
		});
		expect(output('Second')[0].json.path).toBe('/b/a/1/1');
	});

	it('a failing node: the run resolves (no throw) with the error, as a plain object, on the node and the run', async () => {
		const { run, error, output } = await runWorkflow({
			nodeTypes: [new Fetcher()],
			nodes: [{ name: 'Fetch', type: 'fetcher', parameters: { path: '/fail' } }],
			credentials: credentials(),
			inputItems: [{}],
		});
		expect(run.status).toBe('error');
		// The engine stores a serialisable copy of the thrown error, not the instance.
		expect(error('Fetch')).toMatchObject({
			name: 'NodeOperationError',
			message: 'The service was not able to process your request',
			description: 'boom',
			context: { itemIndex: 0 },
			node: { name: 'Fetch' },
		});
		expect(run.data.resultData.error).toMatchObject({
			name: 'NodeOperationError',
			description: 'boom',
		});
		expect(output('Fetch')).toEqual([]);
	});

	it('continueOnFail: the node keeps going and the run succeeds', async () => {
		const { run, error, output } = await runWorkflow({
			nodeTypes: [new Fetcher()],
			nodes: [
				{
					name: 'Fetch',
					type: 'fetcher',
					parameters: { path: '={{ $json.p }}' },
					onError: 'continueRegularOutput',
				},
			],
			credentials: credentials(),
			inputItems: [{ p: '/fail' }, { p: '/ok' }],
		});
		expect(run.status).toBe('success');
		expect(error('Fetch')).toBeUndefined();
		expect(output('Fetch').map((i) => Object.keys(i.json)[0])).toEqual(['error', 'path']);
	});

	it('continueErrorOutput: failed items go to the extra error output', async () => {
		const { outputAt } = await runWorkflow({
			nodeTypes: [new Fetcher()],
			nodes: [
				{
					name: 'Fetch',
					type: 'fetcher',
					parameters: { path: '={{ $json.p }}' },
					onError: 'continueErrorOutput',
				},
			],
			credentials: credentials(),
			inputItems: [{ p: '/fail' }, { p: '/ok' }],
		});
		expect(outputAt('Fetch', 0).map((i) => i.json.path)).toEqual(['/ok']);
		// The engine builds the error item from the input item's json plus the error message.
		expect(outputAt('Fetch', 1)).toEqual([
			expect.objectContaining({
				json: { p: '/fail', error: expect.any(String) },
				pairedItem: { item: 0 },
			}),
		]);
	});
});

describe('testCredentials', () => {
	// Neither credential has a test request any more (the nodes test them): one with a test.
	const withTestRequest = () =>
		Object.assign(new AlbatoSolutionsApi(), {
			test: {
				request: {
					baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
					url: '/solution/apps',
					method: 'GET' as const,
				},
			},
		});

	it("sends the credential class's test request with its authenticate applied", async () => {
		await expect(
			testCredentials(withTestRequest(), {
				baseUrl: `${baseUrl}//`,
				accessToken: 't',
				headerForm: 'bearer',
			}),
		).resolves.toEqual({
			status: 'OK',
			message: expect.any(String),
		});
		expect(received).toEqual([{ url: '/solution/apps', authorization: 'Bearer t' }]);
		const failing = await testCredentials(withTestRequest(), {
			baseUrl: `${baseUrl}/fail#`,
			accessToken: 't',
		});
		expect(failing.status).toBe('Error');
	});
});

describe('loadOptionsContext', () => {
	it('runs loadOptions with the current parameters and real authenticated HTTP', async () => {
		const nodeType = new Fetcher();
		const ctx = loadOptionsContext({
			nodeType,
			parameters: { path: '/options' },
			credentials: credentials(),
		});
		await expect(nodeType.methods.loadOptions.choices.call(ctx)).resolves.toEqual([
			{ name: 'Alpha', value: 'a' },
			{ name: 'Beta', value: 'b' },
		]);
		expect(received).toEqual([{ url: '/options', authorization: 'Bearer tok-123' }]);
		expect(ctx.getNodeParameter('path')).toBe('/options');
	});
});

describe('pollContext', () => {
	it('keeps static data between polls and across a simulated restart', async () => {
		const nodeType = new Poller();
		const staticData: IDataObject = {};
		const poll = (data: IDataObject, mode: 'trigger' | 'manual' = 'trigger') =>
			nodeType.poll.call(
				pollContext({ nodeType, credentials: credentials(), staticData: data, mode }),
			);

		events = [{ id: 1 }, { id: 2 }];
		expect((await poll(staticData))?.[0].map((i) => i.json.id)).toEqual([1, 2]);
		expect(await poll(staticData)).toBeNull();

		events.push({ id: 3 });
		const saved = JSON.parse(JSON.stringify(staticData)) as IDataObject; // n8n saves it, restarts
		expect(saved).toEqual({ 'node:Poller': { lastId: 2 } });
		expect((await poll(saved))?.[0].map((i) => i.json.id)).toEqual([3]);

		// "Fetch test event" sees the latest event and leaves the state alone.
		expect((await poll({}, 'manual'))?.[0].map((i) => i.json.id)).toEqual([3]);
		expect(received.length).toBeGreaterThan(0);
		expect(received.every((r) => r.authorization === 'Bearer tok-123')).toBe(true);
	});
});
