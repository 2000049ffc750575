import type { INode, INodeExecutionData } from 'n8n-workflow';

import { errorItem } from './errorItem';
import type { NotAttemptedError } from './rolloutGuard';

/**
 * An item the rollout guard never started: `{ error, message, notAttempted: true, details }`, paired
 * to its input. Under "Continue (using error output)" n8n routes an item whose json holds more than
 * error, message and details only when the item's `error` is set, so it is set; under plain
 * "Continue" the item stays on the success output with the same fields.
 */
export function notAttemptedItem(node: INode, error: NotAttemptedError): INodeExecutionData {
	const itemIndex = error.context.itemIndex as number;
	const item = errorItem(node, error, itemIndex);
	item.json.notAttempted = true;
	if (node.onError === 'continueErrorOutput') item.error = error;
	return item;
}
