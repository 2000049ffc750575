/**
 * A stand-in for an execution's context with n8n's deduplication store only (the harness's), for
 * the units of Run → Get New's windows (window/claims.ts): what they call of `this`.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { MemoryDeduplicator } from '../../harness';

export interface StoreList {
	workflow: { id: string };
	node: { id: string; name: string };
}

export function storeExecution(
	store: MemoryDeduplicator,
	{ workflow, node }: StoreList,
	id: string,
): IExecuteFunctions {
	const contextData = { workflow, node } as never;
	return {
		getWorkflow: () => workflow,
		getNode: () => node,
		getExecutionId: () => id,
		logger: { warn: () => undefined },
		helpers: {
			checkProcessedAndRecord: async (items: string[], scope: 'node', options: never) =>
				await store.checkProcessedAndRecord(items, scope, contextData, options),
			removeProcessed: async (items: string[], scope: 'node') =>
				await store.removeProcessed(items, scope, contextData),
		},
	} as unknown as IExecuteFunctions;
}
