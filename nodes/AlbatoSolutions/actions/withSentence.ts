import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { retold, shownOf } from '../../shared/transport/errors';

/**
 * The same failure with one more sentence at the end of its description, as a new error: the one
 * given is not changed (it may stand for other items too). The new error keeps the message, the
 * item index (or takes `itemIndex` when the error has none) and `httpCode`; the transport's errors
 * also keep their call, outcome and status (`retold`). A NodeApiError stays a NodeApiError; any
 * other error becomes a NodeOperationError.
 */
export function withSentence(
	node: INode,
	error: Error,
	sentence: string,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	const { description } = shownOf(error);
	const text = {
		message: error.message,
		description: description ? `${description} ${sentence}` : sentence,
		itemIndex: itemIndexOf(error) ?? itemIndex,
	};
	if (error instanceof NodeApiError) return retold(node, error, text, error.errorResponse);
	// NodeOperationError hands back the very error it is given: build the new one from its message.
	const cause = error instanceof NodeOperationError ? error.message : error;
	return new NodeOperationError(node, cause, text);
}

function itemIndexOf(error: Error): number | undefined {
	const { context } = error as Error & { context?: { itemIndex?: unknown } };
	return typeof context?.itemIndex === 'number' ? context.itemIndex : undefined;
}
