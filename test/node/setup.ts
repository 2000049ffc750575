/**
 * What every node integration test stands on: one emulator per test file (real HTTP over loopback)
 * and a `run()` that executes our node in n8n-core's engine with the emulator's credential.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startEmulator, type Emulator } from '../../emulator';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { forgetClaims } from '../../nodes/AlbatoSolutions/actions/installation/installLedger';
import { runWorkflow, type HarnessNode } from '../../harness';

export const NODE_NAME = 'Albato';

export interface NodeRun {
	json: IDataObject[];
	pairedItems: unknown[];
	error?: Error & { description?: string; httpCode?: string; context?: IDataObject };
	/** What the service was asked, in order, method and path only (`GET /solution/apps`). */
	calls: string[];
	/** The whole run as n8n would store it (for searching it, e.g. for secrets). */
	serialized: string;
}

export function useEmulator() {
	const context: { emu: Emulator; token: string } = {} as never;
	beforeAll(async () => {
		context.emu = await startEmulator({ port: 0 });
	});
	afterAll(async () => {
		await context.emu.close();
	});
	beforeEach(() => {
		context.emu.reset();
		forgetClaims(); // the reset emulator hands out the same installation ids again
		context.token = context.emu.token();
	});
	return context;
}

export async function runNode(
	emu: Emulator,
	parameters: INodeParameters,
	options: { inputItems?: IDataObject[]; token?: string; continueOnFail?: boolean; baseUrl?: string; extra?: Partial<HarnessNode> } = {},
): Promise<NodeRun> {
	const before = emu.requests.length;
	const result = await runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [
			{
				name: NODE_NAME,
				type: 'albatoSolutions',
				parameters,
				...(options.continueOnFail ? { onError: 'continueRegularOutput' } : {}),
				...options.extra,
			},
		],
		inputItems: options.inputItems ?? [{}],
		credentials: { albatoSolutionsApi: { baseUrl: options.baseUrl ?? emu.baseUrl, accessToken: options.token ?? emu.token() } },
	});
	const items = result.output(NODE_NAME);
	return {
		json: items.map((item) => item.json),
		pairedItems: items.map((item) => item.pairedItem),
		error: result.error(NODE_NAME) as NodeRun['error'],
		calls: emu.requests.slice(before).map((entry) => `${entry.method} ${entry.path}`),
		serialized: JSON.stringify(result.run, (_key, value: unknown) => (value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value)),
	};
}

export const byId = (mode: 'id' | 'list', value: string | number) => ({ __rl: true, mode, value: String(value) });

/**
 * Bundle Data → Update driven by the input items (`{ installation, bundle, step, values }`), with
 * "Pause, Update, Then Start Again": what the fault, soak and concurrency tests send.
 */
export const guardedUpdateFromItems = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'bundleData',
	operation: 'update',
	installationId: byId('id', '={{ $json.installation }}'),
	bundleId: '={{ $json.bundle }}',
	stepId: '={{ $json.step }}',
	fieldValuesMode: 'json',
	fieldValues: '={{ JSON.stringify($json.values) }}',
	ifActive: 'pauseAndResume',
	...extra,
});
