/**
 * Calls the node's picker methods (listSearch, loadOptions, resourceMapping) as the editor does:
 * through n8n-core's real LoadOptionsContext, with the node's current parameters and the real
 * credential, against the emulator. Each call reports the requests it made.
 */
import type {
	ICredentialDataDecryptedObject,
	ILoadOptionsFunctions,
	INodeParameters,
} from 'n8n-workflow';

import type { Emulator } from '../../emulator';
import type { RequestLogEntry } from '../../emulator/types';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { loadOptionsContext } from '../../harness';
import { byId, useEmulator } from './setup';

export type MethodKind = 'listSearch' | 'loadOptions' | 'resourceMapping';

type PickerMethod = (this: ILoadOptionsFunctions, filter?: string) => Promise<unknown>;

export interface CallOptions {
	/** Search text of a list search. */
	filter?: string;
	/** Default: the emulator's credential for user-1. `null`: the node has no credential selected. */
	credential?: ICredentialDataDecryptedObject | null;
}

export interface Picked<T> {
	result: T;
	/** The requests this call made, as `METHOD /path?query` (query as sent). */
	calls: string[];
	requests: RequestLogEntry[];
}

export const node = new AlbatoSolutions();

export function describeRequest(entry: RequestLogEntry): string {
	return `${entry.method} ${entry.path}${entry.rawQuery ? `?${entry.rawQuery}` : ''}`;
}

export function usePickers() {
	const ctx = useEmulator();

	const credential = (): ICredentialDataDecryptedObject => ({
		baseUrl: ctx.emu.baseUrl,
		accessToken: ctx.token,
	});

	async function call<T>(
		kind: MethodKind,
		method: string,
		parameters: INodeParameters,
		options: CallOptions = {},
	): Promise<Picked<T>> {
		const given = options.credential === undefined ? credential() : options.credential;
		const context = loadOptionsContext({
			nodeType: node,
			parameters,
			credentials: given === null ? {} : { albatoSolutionsApi: given },
		});
		const fn = (node.methods[kind] as unknown as Record<string, PickerMethod>)[method];
		if (!fn) throw new Error(`No ${kind} method "${method}"`);
		const before = ctx.emu.requests.length;
		const result = (await fn.call(context, options.filter)) as T;
		const requests = ctx.emu.requests.slice(before);
		return { result, requests, calls: requests.map(describeRequest) };
	}

	/** The error a call fails with, and the requests it made on the way. */
	async function failure(
		kind: MethodKind,
		method: string,
		parameters: INodeParameters,
		options: CallOptions = {},
	) {
		const before = ctx.emu.requests.length;
		try {
			await call(kind, method, parameters, options);
		} catch (error) {
			const requests = ctx.emu.requests.slice(before);
			return {
				error: error as Error & { description?: string; httpCode?: string | null },
				calls: requests.map(describeRequest),
			};
		}
		throw new Error(`${method} did not fail`);
	}

	return {
		get emu(): Emulator {
			return ctx.emu;
		},
		get token(): string {
			return ctx.token;
		},
		credential,
		call,
		failure,
	};
}

/**
 * The parameters the editor has when each method runs: the node's resource, operation and parents.
 */
export const PARENTS = {
	searchSolutions: { resource: 'installation', operation: 'create' },
	searchInstallations: { resource: 'installation', operation: 'start' },
	getTemplates: { resource: 'installation', operation: 'create', solutionId: byId('list', 101) },
	getBundles: { resource: 'bundleData', operation: 'update', installationId: byId('list', 5001) },
	getSteps: {
		resource: 'bundleData',
		operation: 'update',
		installationId: byId('list', 5001),
		bundleId: 7001,
	},
	getConnectionSettingsFields: {
		resource: 'installation',
		operation: 'create',
		solutionId: byId('list', 101),
	},
	getFieldValueFields: {
		resource: 'bundleData',
		operation: 'update',
		installationId: byId('list', 5001),
		bundleId: 7001,
		stepId: 9002,
	},
	getPartnerFields: { resource: 'credential', operation: 'create', partnerId: 201 },
} satisfies Record<string, INodeParameters>;

export const METHODS: Array<{ kind: MethodKind; method: keyof typeof PARENTS; what: string }> = [
	{ kind: 'listSearch', method: 'searchSolutions', what: 'the solutions' },
	{ kind: 'listSearch', method: 'searchInstallations', what: 'the installations' },
	{ kind: 'loadOptions', method: 'getTemplates', what: 'the templates' },
	{ kind: 'loadOptions', method: 'getBundles', what: 'the automations' },
	{ kind: 'loadOptions', method: 'getSteps', what: 'the steps' },
	{
		kind: 'resourceMapping',
		method: 'getConnectionSettingsFields',
		what: 'the connection settings',
	},
	{ kind: 'resourceMapping', method: 'getFieldValueFields', what: 'the fields of the step' },
	{ kind: 'resourceMapping', method: 'getPartnerFields', what: "the partner's fields" },
];
