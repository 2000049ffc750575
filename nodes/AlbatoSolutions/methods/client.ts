import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { AlbatoClient } from '../transport';

// n8n-core's words when the node has no credential selected (LoadOptionsContext.getCredentials).
const NO_CREDENTIAL = /does not have any credentials set|Credentials not found/i;

/**
 * A fresh client for one picker call: nothing is cached between calls, so every list reflects the
 * service as it is now. n8n-core's "Node does not have any credentials set for …" becomes a message
 * that names the credential to choose; the client's own checks (Base URL, empty or expired token)
 * already say what to fix.
 */
export async function pickerClient(ctx: ILoadOptionsFunctions): Promise<AlbatoClient> {
	try {
		return await AlbatoClient.create(ctx);
	} catch (error) {
		if (NO_CREDENTIAL.test((error as Error).message ?? '')) {
			throw new NodeOperationError(ctx.getNode(), 'No Albato Solutions API credential is selected', {
				description: 'Select or create an Albato Solutions API credential for this node, then open the list again',
			});
		}
		throw error;
	}
}
