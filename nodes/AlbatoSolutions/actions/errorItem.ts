import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { shownOf } from '../../shared/transport/errors';

/**
 * What a failed item carries under continueOnFail: `error` (the message) and `message` (the call,
 * the status and a hint). With "Continue (using error output)" n8n sends an item to the error
 * output only when its json holds nothing but `error` and `message` (n8n 2.x also allows
 * `details`), or when the item has `error` set; setting that would make n8n replace the json with
 * the bare message, so the error output gets exactly `{ error, message }` (n8n merges the input
 * item's fields in). With plain "Continue" the item stays in place and also carries `httpCode`.
 */
export function errorItem(node: INode, error: Error, itemIndex: number): INodeExecutionData {
	const { description, httpCode } = shownOf(error);
	const json: IDataObject = { error: error.message || 'The operation failed' };
	if (description) json.message = description;
	if (httpCode && node.onError !== 'continueErrorOutput') json.httpCode = httpCode;
	// What a failure reports beside its text (e.g. a paused duplicate's `duplicateOf`): n8n 2.x
	// routes `details` too.
	const { details } = error as Error & { details?: IDataObject };
	if (details) json.details = details;
	return { json, pairedItem: { item: itemIndex } };
}
