import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { errorItemKeepsDetails } from '../../shared/descriptions/versions';
import { shownOf } from '../../shared/transport/errors';

/**
 * What a failed item carries under continueOnFail: `error` (the message) and `message` (the call,
 * the status and a hint). With "Continue (using error output)" the error output gets
 * `{ error, message }` (n8n merges the input item's fields in; `errorItemKeepsDetails` says why
 * nothing more). With plain "Continue" the item stays in place and also carries `httpCode`.
 */
export function errorItem(node: INode, error: Error, itemIndex: number): INodeExecutionData {
	const { description, httpCode } = shownOf(error);
	const json: IDataObject = { error: error.message || 'The operation failed' };
	if (description) json.message = description;
	if (httpCode && node.onError !== 'continueErrorOutput') json.httpCode = httpCode;
	// What a failure reports beside its text (e.g. a paused duplicate's `duplicateOf`).
	const { details } = error as Error & { details?: IDataObject };
	if (details && errorItemKeepsDetails(node)) json.details = details;
	return { json, pairedItem: { item: itemIndex } };
}
