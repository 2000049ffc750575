/**
 * Integration-test harness: runs this package's nodes inside n8n-core's real engine
 * (WorkflowExecute, LoadOptionsContext, PollContext) with real HTTP, so parameters, expressions,
 * credentials, pairedItem and continueOnFail behave as they do in n8n.
 *
 * n8n's own NodeTestHarness (packages/nodes-base/test) is not published; this is the small subset
 * we need. What n8n's backend (the CLI package) normally provides is replaced by:
 *  - TestCredentialsHelper: credentials from the test, `authenticate` from the real credential class;
 *  - a minimal IWorkflowExecuteAdditionalData (see additionalData());
 *  - the `harness.items` node in place of a Manual Trigger (nodes-base is not installed).
 */
import { Container } from '@n8n/di'; // n8n-core's own DI container (a dependency of n8n-core)
import { randomUUID } from 'crypto';
import {
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PollContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ExecutionError,
	ICredentialType,
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ApplicationError, NodeConnectionTypes, NodeHelpers, Workflow } from 'n8n-workflow';

// Not re-exported by n8n-core's index; the package has no "exports" map, so the deep path is stable enough.
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

import { AlbatoPartnerApi } from '../credentials/AlbatoPartnerApi.credentials';
import { AlbatoSolutionsApi } from '../credentials/AlbatoSolutionsApi.credentials';
import { TestCredentialsHelper, type TestCredentials } from './credentials';
import { deduplicationStore, MemoryDeduplicator } from './deduplication';

export { TestCredentialsHelper, type TestCredentials };
export { deduplicationStore, MemoryDeduplicator };

/** Workflow JSON prefixes community node types with the package name. */
export const PACKAGE_NAME = 'n8n-nodes-albato-solutions';

type AnyNodeType = INodeType | IVersionedNodeType;

/** A node as in exported workflow JSON; id, position, typeVersion and credentials may be left out. */
export type HarnessNode = Omit<INode, 'id' | 'position' | 'typeVersion' | 'parameters'> &
	Partial<Pick<INode, 'id' | 'position' | 'typeVersion' | 'parameters'>>;

interface CommonOptions {
	/** Test credential data by credential type name. */
	credentials?: TestCredentials;
	/** The real credential classes whose `authenticate` is applied. Default: this package's. */
	credentialTypes?: ICredentialType[];
}

// ---------------------------------------------------------------------------------------------
// Node types

/** Emits the items given in its `items` parameter: the start of a workflow that feeds a node input. */
class HarnessItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Items',
		name: 'harness.items',
		group: ['input'],
		version: 1,
		description: 'Test input',
		defaults: { name: 'Input' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as IDataObject[];
		return [items.map((json) => ({ json, pairedItem: { item: 0 } }))];
	}
}

/** INodeTypes over the given instances, by full (`package.name`) and short name, any version. */
export function makeNodeTypes(types: AnyNodeType[]): INodeTypes {
	const byName = new Map<string, AnyNodeType>();
	for (const type of [...types, new HarnessItems()]) {
		const { name } = type.description;
		byName.set(name, type);
		if (!name.includes('.')) byName.set(`${PACKAGE_NAME}.${name}`, type);
	}
	const get = (name: string) => {
		const type = byName.get(name);
		if (!type) throw new ApplicationError(`Harness: unknown node type "${name}"`);
		return type;
	};
	return {
		getByName: get,
		getByNameAndVersion: (name, version) => NodeHelpers.getVersionedNodeType(get(name), version),
		getKnownTypes: () => ({}),
	};
}

function defaultVersion(type: AnyNodeType): number {
	if ('nodeVersions' in type) return type.currentVersion;
	const { version } = type.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/**
 * Fills in what an exported workflow always has, and attaches the test credentials the node type
 * declares: the engine refuses getCredentials() for a node without `node.credentials[type]`.
 */
function completeNode(
	node: HarnessNode,
	nodeTypes: INodeTypes,
	credentials: TestCredentials,
): INode {
	const type = nodeTypes.getByName(node.type);
	const typeVersion = node.typeVersion ?? defaultVersion(type);
	const declared =
		NodeHelpers.getVersionedNodeType(type, typeVersion).description.credentials ?? [];
	const nodeCredentials = { ...node.credentials };
	for (const { name } of declared) {
		if (credentials[name] && !nodeCredentials[name])
			nodeCredentials[name] = { id: name, name: `Test ${name}` };
	}
	return {
		id: randomUUID(),
		position: [0, 0],
		...structuredClone(node), // the Workflow constructor writes defaults into parameters
		parameters: structuredClone(node.parameters ?? {}),
		typeVersion,
		credentials: nodeCredentials,
	};
}

// ---------------------------------------------------------------------------------------------
// additionalData

/**
 * The minimal IWorkflowExecuteAdditionalData. What n8n-core 2.11 really reads while running
 * ordinary nodes: `credentialsHelper`, `hooks` (WorkflowExecute asserts it), `executionId` and the
 * URL fields ($execution), `variables` ($vars), `currentNodeParameters` (load options only).
 * The rest serve sub-workflows, task runners, AI nodes and webhooks: they throw if ever reached.
 */
function additionalData(
	credentialsHelper: TestCredentialsHelper,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
) {
	const notInTests = (what: string) => () => {
		throw new ApplicationError(`Harness: ${what} is not available in tests`);
	};
	const data: Partial<IWorkflowExecuteAdditionalData> = {
		credentialsHelper,
		executionId: randomUUID(),
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		executeWorkflow: notInTests('executeWorkflow (sub-workflows)'),
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: notInTests('startRunnerTask (Code node runners)'),
		...extra,
	};
	return data as IWorkflowExecuteAdditionalData;
}

function workflowOf(
	nodeTypes: INodeTypes,
	nodes: INode[],
	connections: IConnections,
	staticData?: IDataObject,
) {
	return new Workflow({
		id: 'harness-workflow',
		name: 'Harness workflow',
		nodes,
		connections,
		active: false,
		nodeTypes,
		staticData,
		settings: { executionOrder: 'v1' },
	});
}

// ---------------------------------------------------------------------------------------------
// runWorkflow

export interface RunWorkflowOptions extends CommonOptions {
	nodeTypes: AnyNodeType[];
	nodes: HarnessNode[];
	/** Default: the nodes chained in the given order. */
	connections?: IConnections;
	/** When given, an `Input` node emitting these items feeds every node that has no input. */
	inputItems?: IDataObject[];
	/** The execution's mode, as `this.getMode()` answers it. Default 'manual' (the editor). */
	mode?: WorkflowExecuteMode;
	/**
	 * The workflow's static data for this execution; the nodes change it in place. n8n loads it when
	 * the execution starts and saves it when it ends (not for manual executions): copy it in and back
	 * to model that (test/support/sweeps.ts).
	 */
	staticData?: IDataObject;
	/** The workflow's id (keys n8n's deduplication store). Default 'harness-workflow'. */
	workflowId?: string;
	/**
	 * When it resolves, the execution is cancelled as n8n's Stop does: its abort signal fires, so the
	 * requests in flight are aborted. The run still resolves once the running node returns.
	 */
	cancel?: Promise<unknown>;
}

export interface RunWorkflowResult {
	run: IRun;
	/** First output of the last run of the node ([] when it did not run or failed). */
	output(nodeName: string): INodeExecutionData[];
	/** Output `index` (e.g. 1 for an error output) of the last run of the node. */
	outputAt(nodeName: string, index: number): INodeExecutionData[];
	/** The error the node's last run failed with (not set under continueOnFail). */
	error(nodeName: string): ExecutionError | undefined;
}

export const INPUT_NODE = 'Input';

const chain = (names: string[]): IConnections =>
	Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);

/** Runs the workflow to the end, as a manual execution, and resolves with its run data. */
export async function runWorkflow(options: RunWorkflowOptions): Promise<RunWorkflowResult> {
	const credentials = options.credentials ?? {};
	const nodeTypes = makeNodeTypes(options.nodeTypes);
	const nodes = options.nodes.map((node) => completeNode(node, nodeTypes, credentials));
	const connections: IConnections = structuredClone(
		options.connections ?? chain(nodes.map((n) => n.name)),
	);

	const fed = new Set(
		Object.values(connections).flatMap((c) => (c.main ?? []).flat().map((t) => t?.node)),
	);
	const roots = nodes.filter((n) => !fed.has(n.name));
	if (options.inputItems) {
		nodes.unshift(
			completeNode(
				{
					name: INPUT_NODE,
					type: 'harness.items',
					parameters: { items: JSON.stringify(options.inputItems) },
				},
				nodeTypes,
				{},
			),
		);
		connections[INPUT_NODE] = {
			main: [roots.map((n) => ({ node: n.name, type: 'main', index: 0 }))],
		};
	}
	const startNode = options.inputItems ? nodes[0] : roots[0];

	const workflow = workflowOf(nodeTypes, nodes, connections, options.staticData);
	if (options.workflowId) workflow.id = options.workflowId;
	deduplicationStore(); // n8n's CLI provides this store; the harness, an in-memory one
	const mode = options.mode ?? 'manual';
	const helper = new TestCredentialsHelper(
		options.credentialTypes ?? [new AlbatoSolutionsApi(), new AlbatoPartnerApi()],
		credentials,
	);
	const data = additionalData(helper);
	// WorkflowExecute insists on hooks; it resolves with the IRun anyway, so none are registered.
	data.hooks = new ExecutionLifecycleHooks(mode, data.executionId!, {
		id: workflow.id,
		name: workflow.name,
		nodes,
		connections,
		active: false,
		settings: workflow.settings,
	} as IWorkflowBase);

	const execution = new WorkflowExecute(data, mode).run({ workflow, startNode });
	void options.cancel?.then(() => execution.cancel());
	const run = await execution;
	const lastRun = (name: string) => run.data.resultData.runData[name]?.at(-1);
	const outputAt = (name: string, index: number) => lastRun(name)?.data?.main?.[index] ?? [];
	return {
		run,
		output: (name) => outputAt(name, 0),
		outputAt,
		error: (name) => lastRun(name)?.error,
	};
}

// ---------------------------------------------------------------------------------------------
// Contexts for methods and poll

interface SingleNodeOptions extends CommonOptions {
	nodeType: AnyNodeType;
	/** The node's parameters as saved in the workflow (defaults are filled in as n8n does). */
	parameters?: INode['parameters'];
	typeVersion?: number;
}

function singleNodeWorkflow(options: SingleNodeOptions, staticData?: IDataObject) {
	const credentials = options.credentials ?? {};
	const nodeTypes = makeNodeTypes([options.nodeType]);
	const node = completeNode(
		{
			name:
				NodeHelpers.getVersionedNodeType(options.nodeType, options.typeVersion).description.defaults
					.name ?? 'Node',
			type: options.nodeType.description.name,
			typeVersion: options.typeVersion,
			parameters: options.parameters,
		},
		nodeTypes,
		credentials,
	);
	const workflow = workflowOf(nodeTypes, [node], {}, staticData);
	const helper = new TestCredentialsHelper(
		options.credentialTypes ?? [new AlbatoSolutionsApi(), new AlbatoPartnerApi()],
		credentials,
	);
	// Look the node up again: the Workflow constructor replaced its parameters with defaults filled in.
	return { workflow, node: workflow.nodes[node.name], helper };
}

export interface LoadOptionsContextOptions extends SingleNodeOptions {
	/** Path of the parameter being loaded (e.g. `parameters.solutionId`); used by `&sibling` lookups. */
	path?: string;
}

/**
 * n8n-core's real LoadOptionsContext, as the editor's "load options" request gets it: the node's
 * current (unsaved) parameters are in additionalData.currentNodeParameters, which is where
 * getCurrentNodeParameter() reads. Call `nodeType.methods.loadOptions.x.call(ctx)`.
 */
export function loadOptionsContext(options: LoadOptionsContextOptions): LoadOptionsContext {
	const { workflow, node, helper } = singleNodeWorkflow(options);
	// The editor sends null for an expression it could not resolve (no input data): kept as null,
	// where filling in defaults would turn it into the parameter's default.
	const unresolved = Object.entries(options.parameters ?? {}).filter(([, value]) => value === null);
	const data = additionalData(helper, {
		currentNodeParameters: { ...node.parameters, ...Object.fromEntries(unresolved) },
	});
	return new LoadOptionsContext(workflow, node, data, options.path ?? 'parameters');
}

export interface PollContextOptions extends SingleNodeOptions {
	/**
	 * The workflow's static data. Pass an object you keep: the node writes into it (under
	 * `node:<name>`), so the next context built with the same object continues where the last poll
	 * stopped. A JSON round-trip of it simulates n8n saving it and restarting.
	 */
	staticData?: IDataObject;
	/** 'trigger' = active workflow polling; 'manual' = the editor's "Fetch test event". */
	mode: 'trigger' | 'manual';
}

/** n8n-core's real PollContext. Call `nodeType.poll.call(ctx)`. */
export function pollContext(options: PollContextOptions): PollContext {
	const { workflow, node, helper } = singleNodeWorkflow(options, options.staticData ?? {});
	const activation = options.mode === 'manual' ? 'manual' : 'activate';
	return new PollContext(workflow, node, additionalData(helper), options.mode, activation);
}

// ---------------------------------------------------------------------------------------------
// Credential test

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * What the editor's "Test credential" button does for a declarative `test` block: resolve the
 * request's `={{$credentials.x}}` expressions, send it through httpRequestWithAuthentication (so the
 * class's `authenticate` applies), and check its `rules`. Only the simple rule types are supported.
 */
export async function testCredentials(
	credentialType: ICredentialType,
	data: IDataObject,
): Promise<CredentialTestResult> {
	const test = credentialType.test;
	if (!test)
		throw new ApplicationError(`Harness: credential type "${credentialType.name}" has no test`);
	const probe: INodeType = {
		description: {
			displayName: 'Credential Probe',
			name: 'harness.credentialProbe',
			group: ['input'],
			version: 1,
			description: 'Sends a credential test request',
			defaults: { name: 'Credential Probe' },
			inputs: [],
			outputs: [],
			credentials: [{ name: credentialType.name }],
			properties: [],
		},
	};
	const credentials = { [credentialType.name]: data as TestCredentials[string] };
	const { workflow, node, helper } = singleNodeWorkflow({
		nodeType: probe,
		credentials,
		credentialTypes: [credentialType],
	});
	const ctx = new LoadOptionsContext(workflow, node, additionalData(helper), 'parameters');
	const decrypted = await helper.getDecrypted(
		undefined,
		{ id: null, name: '' },
		credentialType.name,
	);
	const resolved = Object.fromEntries(
		Object.entries(test.request).map(([key, value]) => [
			key,
			typeof value === 'string'
				? workflow.expression.getSimpleParameterValue(
						node,
						value,
						'internal',
						{ $credentials: decrypted },
						undefined,
						value,
					)
				: value,
		]),
	);
	let response: { statusCode: number; body: unknown };
	try {
		response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, credentialType.name, {
			...resolved,
			url: resolved.url as string,
			returnFullResponse: true,
		})) as typeof response;
	} catch (error) {
		// As n8n's tester: a status it did not ignore fails with the responseCode rule's message, if any.
		const status = Number((error as { httpCode?: unknown }).httpCode);
		const rule = (test.rules ?? []).find(
			(candidate) => candidate.type === 'responseCode' && candidate.properties.value === status,
		);
		return { status: 'Error', message: rule?.properties.message ?? (error as Error).message };
	}
	for (const rule of test.rules ?? []) {
		if (rule.type === 'responseCode' && response.statusCode === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
		if (rule.type === 'responseSuccessBody') {
			const actual = rule.properties.key
				.split('.')
				.reduce<unknown>((v, k) => (v as IDataObject | undefined)?.[k], response.body);
			if (actual === rule.properties.value)
				return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

// ---------------------------------------------------------------------------------------------
// Teardown

/**
 * Every execution and load-options context asks n8n-core's DI container for its SSHClientsManager
 * singleton, which starts a 60 s cleanup setInterval that keeps the process alive. n8n stops it on
 * shutdown. Under Jest, test/setup-after-env.ts already does this after each file; call this from
 * scripts that use the harness outside Jest.
 */
export function releaseN8nResources(): void {
	if (Container.has(SSHClientsManager)) Container.get(SSHClientsManager).onShutdown();
}
