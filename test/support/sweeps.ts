/**
 * Run → Get New over many executions, as n8n runs a scheduled workflow: each sweep is a production
 * execution (mode 'trigger') that starts from the static data saved by the last one to end, and
 * saves its own when it ends (a manual one saves nothing). n8n's deduplication store is the harness's
 * in-memory one, shared by every sweep of the process.
 */
import type { IDataObject, INodeParameters, WorkflowExecuteMode } from 'n8n-workflow';

import type { Emulator } from '../../emulator';
import { deduplicationStore, runWorkflow } from '../../harness';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { partnerCredential } from './partnerSetup';

export const WATCH_NODE = 'Watch';

export interface Sweep {
	json: IDataObject[];
	/** Items on the error output. */
	errors: IDataObject[];
	pairedItems: unknown[];
	errorPairs: unknown[];
	/** Service calls, `METHOD /path?query`. */
	calls: string[];
}

export interface WatcherOptions {
	/** Partner mode (End User ID per item from `$json.customer`); else the Access Token credential. */
	partner?: boolean;
	token?: string;
	parameters?: INodeParameters;
	workflowId?: string;
	/**
	 * 'lost': every sweep starts from empty static data, as a queue-mode worker of n8n 2.41 does
	 * (docs/scaling.md); the deduplication store is still shared. Default 'kept'.
	 */
	staticData?: 'kept' | 'lost';
	/**
	 * Which worker process runs the sweeps: 0 (default) this one; another number, a second worker,
	 * with its own copy of the node's modules (so its own queue of store calls, gate.ts), sharing
	 * the deduplication store as n8n's workers share the database.
	 */
	worker?: number;
	/** The node's version (default 4: the memory of runs; 5 sweeps by windows). */
	version?: number;
}

const workerNodes = new Map<number, typeof AlbatoSolutions>([[0, AlbatoSolutions]]);

/** The node class as worker `worker` loads it (see WatcherOptions.worker). */
function nodeOfWorker(worker: number): typeof AlbatoSolutions {
	let node = workerNodes.get(worker);
	if (!node) {
		jest.isolateModules(() => {
			const loaded = jest.requireActual<{ AlbatoSolutions: typeof AlbatoSolutions }>(
				'../../nodes/AlbatoSolutions/AlbatoSolutions.node',
			);
			node = loaded.AlbatoSolutions;
		});
		workerNodes.set(worker, node!);
	}
	return node!;
}

/** n8n's two ways of handing a sweep its static data (see WatcherOptions.staticData). */
export const STATIC_DATA_MODELS = [
	['static data kept (regular mode)', 'kept'],
	['static data lost (queue mode)', 'lost'],
] as const;

export function watcher(emu: Emulator, options: WatcherOptions = {}) {
	let saved: IDataObject = {};
	const workflowId = options.workflowId ?? `wf-${Math.random().toString(36).slice(2)}`;
	const sweep = async (
		customers: IDataObject[],
		{
			mode = 'trigger',
			parameters = {},
			onError = 'continueErrorOutput',
		}: {
			mode?: WorkflowExecuteMode;
			parameters?: INodeParameters;
			/** 'stopWorkflow': the node's first failing item fails the execution. */
			onError?: 'continueErrorOutput' | 'stopWorkflow';
		} = {},
	): Promise<Sweep> => {
		const staticData = JSON.parse(JSON.stringify(saved)) as IDataObject;
		const before = emu.requests.length;
		const result = await runWorkflow({
			nodeTypes: [new (nodeOfWorker(options.worker ?? 0))()],
			mode,
			staticData,
			workflowId,
			nodes: [
				{
					name: WATCH_NODE,
					id: 'watch-node-id',
					type: 'albatoSolutions',
					typeVersion: options.version ?? 4,
					onError,
					parameters: {
						...(options.partner
							? { authentication: 'partnerApi', endUserId: '={{ $json.customer }}' }
							: {}),
						resource: 'run',
						operation: 'getNew',
						...options.parameters,
						...parameters,
					},
				},
			],
			inputItems: customers,
			credentials: options.partner
				? { albatoPartnerApi: partnerCredential(emu) }
				: {
						albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: options.token ?? emu.token() },
					},
		});
		if (mode !== 'manual' && options.staticData !== 'lost')
			saved = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		const out = result.outputAt(WATCH_NODE, 0);
		const errors = result.outputAt(WATCH_NODE, 1);
		const thrown = result.error(WATCH_NODE);
		if (thrown) throw thrown;
		return {
			json: out.map((item) => item.json),
			errors: errors.map((item) => item.json),
			pairedItems: out.map((item) => item.pairedItem),
			errorPairs: errors.map((item) => item.pairedItem),
			calls: emu.requests
				.slice(before)
				.map(
					(entry) => `${entry.method} ${entry.path}${entry.rawQuery ? `?${entry.rawQuery}` : ''}`,
				),
		};
	};
	return {
		sweep,
		workflowId,
		/** The static data n8n would hold now (what the last production sweep saved). */
		get saved() {
			return saved;
		},
		set saved(value: IDataObject) {
			saved = value;
		},
		/** The node's memory in that static data. */
		memory: () =>
			(saved[`node:${WATCH_NODE}`] as IDataObject | undefined)?.getNewRuns as
				| { customers: Record<string, { ended: unknown[]; pending: unknown[]; floor?: unknown }> }
				| undefined,
		store: deduplicationStore,
	};
}

/** A clock for recorded runs: each call one second later. */
export function runClock(start = Date.UTC(2026, 0, 1, 8, 0, 0)) {
	let at = start;
	return () => (at += 1000);
}

/** Creates an end user with one installation of solution 101 and its two automations; answers the bundle ids. */
export async function customerWithTwoAutomations(emu: Emulator, id: string): Promise<number[]> {
	const wl = async (path: string, body: unknown) => {
		const response = await fetch(`${emu.baseUrl}/wl/${emu.partner.name}/${path}`, {
			method: 'POST',
			headers: {
				Authorization: `Basic ${emu.partner.masterToken}`,
				'Content-Type': 'application/json',
			},
			body: JSON.stringify(body),
		});
		if (response.status !== 200) throw new Error(`${path} ${id}: ${response.status}`);
		return (await response.json()) as { data: { sessionToken: string } };
	};
	await wl('add-user', { id });
	const minted = await wl('get-user-session-token', { id });
	const installed = await fetch(`${emu.baseUrl}/solution/101/installation`, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${minted.data.sessionToken}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({
			title: `Leads of ${id}`,
			templateIds: [1011, 1012],
			credentialData: {
				crm: 'hubspot',
				hubspotPipeline: 'sales',
				hubspotStage: 'new',
				mailer: 'mailchimp',
			},
		}),
	});
	if (installed.status !== 201) throw new Error(`install ${id}: ${installed.status}`);
	const { data } = (await installed.json()) as { data: { id: number } };
	emu.requests.length = 0;
	return [...emu.state.bundles.values()]
		.filter((bundle) => bundle.installationId === data.id)
		.map((bundle) => bundle.id);
}
