import type { INode, INodeExecutionData } from 'n8n-workflow';

import { errorItem } from './errorItem';
import type { NotAttemptedError } from './rolloutGuard';

/**
 * An item the rollout guard never started: `{ error, message, details: { notAttempted: true, … } }`,
 * paired to its input. `notAttempted` lives in `details` because n8n 2.x sends an item to the error
 * output only when its json holds nothing but error, message and details (setting the item's
 * `error` instead would make n8n replace the json with the bare message). Under plain "Continue"
 * the item stays on the success output with the same fields.
 */
export function notAttemptedItem(node: INode, error: NotAttemptedError): INodeExecutionData {
	return errorItem(node, error, error.context.itemIndex as number);
}
