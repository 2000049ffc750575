import type { INode, INodeExecutionData, NodeApiError } from 'n8n-workflow';

import { errorItem } from './errorItem';
import type { NotAttemptedError } from './rolloutGuard';

/**
 * An item the rollout guard never started: `{ error, message, notAttempted: true, details }`, paired
 * to its input. Under "Continue (using error output)" n8n routes an item whose json holds more than
 * error, message and details only when the item's `error` is set, so it is set; under plain
 * "Continue" the item stays on the success output with the same fields.
 */
export function notAttemptedItem(node: INode, error: NotAttemptedError): INodeExecutionData {
	const item = reportItem(node, error, error.context.itemIndex as number);
	item.json.notAttempted = true;
	return item;
}

/**
 * An error item that must reach the error output whatever else its json holds (`details`, which
 * older n8n versions do not route, or `notAttempted`): the item's `error` is set for that.
 */
export function reportItem(node: INode, error: Error, itemIndex: number): INodeExecutionData {
	const item = errorItem(node, error, itemIndex);
	if (node.onError === 'continueErrorOutput') item.error = error as NodeApiError;
	return item;
}
