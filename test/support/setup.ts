/**
 * What every node integration test stands on: one emulator per test file (real HTTP over loopback)
 * and a `run()` that executes our node in n8n-core's engine with the emulator's credential.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { startEmulator, type Emulator } from '../../emulator';
import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { forTests } from '../../nodes/AlbatoSolutions/actions/safeInstall/installLedger';
import { forTests as tokenForms } from '../../nodes/shared/transport/tokenForms';
import { runWorkflow, type HarnessNode, type RunWorkflowOptions } from '../../harness';

const { forgetClaims } = forTests;

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
		tokenForms.clear(); // each test starts as a new n8n process: no form of a token learnt
		context.token = context.emu.token();
	});
	return context;
}

export async function runNode(
	emu: Emulator,
	parameters: INodeParameters,
	options: {
		inputItems?: IDataObject[];
		token?: string;
		/** The Access Token credential's Send Token As (absent: its default, Auto). */
		headerForm?: string;
		/** More stored fields of the credential, e.g. as an earlier release saved them. */
		saved?: IDataObject;
		continueOnFail?: boolean;
		baseUrl?: string;
		extra?: Partial<HarnessNode>;
	} = {},
): Promise<NodeRun> {
	return await runAlbatoNode(
		emu,
		{
			parameters,
			...(options.continueOnFail ? { onError: 'continueRegularOutput' } : {}),
			...options.extra,
		},
		options.inputItems ?? [{}],
		{
			albatoSolutionsApi: {
				baseUrl: options.baseUrl ?? emu.baseUrl,
				accessToken: options.token ?? emu.token(),
				...(options.headerForm ? { headerForm: options.headerForm } : {}),
				...(options.saved as ICredentialDataDecryptedObject),
			},
		},
	);
}

/**
 * Runs our node once in n8n-core's engine and collects its output, its error and the calls it made.
 */
export async function runAlbatoNode(
	emu: Emulator,
	node: Partial<HarnessNode>,
	inputItems: IDataObject[],
	credentials: RunWorkflowOptions['credentials'],
): Promise<NodeRun> {
	const before = emu.requests.length;
	const result = await runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [{ name: NODE_NAME, type: 'albatoSolutions', parameters: {}, ...node }],
		inputItems,
		credentials,
	});
	const items = result.output(NODE_NAME);
	return {
		json: items.map((item) => item.json),
		pairedItems: items.map((item) => item.pairedItem),
		error: result.error(NODE_NAME) as NodeRun['error'],
		calls: emu.requests.slice(before).map((entry) => `${entry.method} ${entry.path}`),
		serialized: JSON.stringify(result.run, (_key, value: unknown) =>
			value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
		),
	};
}

export const byId = (mode: 'id' | 'list', value: string | number) => ({
	__rl: true,
	mode,
	value: String(value),
});

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

/**
 * Installation → Create of solution 102 (no nesting) with its valid connection settings; `extra`
 * overrides.
 */
export const installParams = (title: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'installation',
	operation: 'create',
	solutionId: byId('id', 102),
	title,
	connectionSettingsMode: 'json',
	credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[102]),
	templateIds: [1021],
	...extra,
});

/**
 * Installation → Create of solution 101 ("Initech – lead sync", both templates), picked from the
 * list.
 */
export const initechInstallParams = (overrides: Record<string, unknown> = {}) => ({
	resource: 'installation',
	operation: 'create',
	solutionId: byId('list', 101),
	title: 'Initech – lead sync',
	connectionSettingsMode: 'json',
	credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
	templateIds: [1011, 1012],
	...overrides,
});

/** Valid parameters of the writing operations, for tables that spoil one value at a time. */
export const VALID = {
	create: {
		resource: 'installation',
		operation: 'create',
		solutionId: byId('id', 101),
		title: 'Valid title',
		connectionSettingsMode: 'json',
		credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
		templateIds: [1011],
	},
	update: {
		resource: 'bundleData',
		operation: 'update',
		installationId: byId('id', 5002),
		bundleId: 7003,
		stepId: 9006,
		fieldValuesMode: 'json',
		fieldValues: '{"subject": "ok"}',
	},
	credential: {
		resource: 'credential',
		operation: 'create',
		partnerId: 201,
		connectionName: 'Conn',
		fieldsMode: 'json',
		fields: '{"apiUrl": "https://x.example", "apiKey": "k", "region": "eu"}',
	},
} satisfies Record<string, INodeParameters>;

/** mulberry32: a tiny seeded PRNG, so a failing soak can be replayed from its seed. */
export function prng(seed: number) {
	return () => {
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
