import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorItem } from './errorItem';
import type { NodeExecution } from './execution';
import { Reported, type OperationResult } from './types';
import { withSentence } from './withSentence';

/**
 * The output in item order, each item paired to its input. A failed item goes to the error output
 * under Continue On Fail; without it, the first failed item (in item order) fails the execution.
 */
export function output(execution: NodeExecution, itemCount: number): INodeExecutionData[] {
	const { ctx, guard, results, continueOnFail } = execution;
	const notAttempted = itemCount - results.size;
	// With a guard option set, its message fails the node: why it stopped, and the counts.
	if (notAttempted > 0 && guard.active && !continueOnFail)
		throw stoppedRun(execution, notAttempted, itemCount);
	// E.g. an installation paused for an update and not started again: with Continue On Fail its
	// items say so.
	if (execution.atEnd.length && !continueOnFail) throw execution.atEnd[0];
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const result = results.get(itemIndex);
		if (result !== undefined) {
			returnData.push(...itemOutput(execution, result, itemIndex));
		} else if (continueOnFail) {
			// Never started (the guard stopped the run): reported under Continue On Fail, with
			// `details: { notAttempted: true, … }` (errorItem: why details). Without it the first
			// failure is thrown (or stoppedRun was).
			const error = guard.notAttemptedError(ctx.getNode(), itemIndex, notAttempted);
			returnData.push(errorItem(ctx.getNode(), error, itemIndex));
		}
	}
	return returnData;
}

/**
 * One started item's output: its data and reports, or its error (thrown without Continue On Fail).
 */
function itemOutput(
	execution: NodeExecution,
	result: OperationResult | Error,
	itemIndex: number,
): INodeExecutionData[] {
	const node = execution.ctx.getNode();
	if (result instanceof Reported) {
		const items = successItems(execution, result.result, itemIndex);
		for (const report of result.reports) {
			if (!execution.continueOnFail) throw runFailure(execution, report, itemIndex);
			items.push(errorItem(node, report, itemIndex));
		}
		return items;
	}
	if (!(result instanceof Error)) return successItems(execution, result, itemIndex);
	if (execution.continueOnFail) return [errorItem(node, result, itemIndex)];
	throw runFailure(execution, result, itemIndex);
}

function successItems(
	{ ctx }: NodeExecution,
	result: IDataObject | IDataObject[],
	itemIndex: number,
): INodeExecutionData[] {
	return ctx.helpers.constructExecutionMetaData(ctx.helpers.returnJsonArray(result), {
		itemData: { item: itemIndex },
	});
}

/**
 * The rollout guard stopped the run without Continue On Fail: its message, and the first failure.
 */
function stoppedRun(
	execution: NodeExecution,
	notAttempted: number,
	itemCount: number,
): NodeOperationError {
	const { results } = execution;
	const firstFailed = [...results]
		.filter(([, result]) => result instanceof Error)
		.sort(([a], [b]) => a - b)[0];
	const skipped = Array.from({ length: itemCount }, (_item, index) => index).filter(
		(index) => !results.has(index),
	);
	const first = firstFailed
		? `The first failure: item ${firstFailed[0]}: ${(firstFailed[1] as Error).message}. `
		: '';
	return new NodeOperationError(
		execution.ctx.getNode(),
		execution.guard.notAttemptedMessage(notAttempted),
		{
			itemIndex: firstFailed?.[0] ?? skipped[0],
			description: `${first}Items not attempted (nothing sent for them): ${skipped.join(', ')}. Items that completed are not in the output; running the workflow again over the same items writes nothing for those already done (Installation → Ensure; Start and Pause with Skip If Already in Status).`,
		},
	);
}

/**
 * The error that fails the run, with its item index. Items in flight may have completed after this
 * one (in item order they would not have run): their output is lost with the thrown error, so the
 * error names them.
 */
function runFailure(
	{ ctx, results }: NodeExecution,
	error: Error,
	itemIndex: number,
): NodeOperationError | NodeApiError {
	const later = [...results]
		.filter(([index, other]) => index > itemIndex && !(other instanceof Error))
		.map(([index]) => index)
		.sort((a, b) => a - b);
	if (later.length) {
		const items = `Item${later.length > 1 ? 's' : ''} ${later.join(', ')}`;
		const lost = `${items} had already completed (Items in Flight): their output is lost with this error, and running the workflow again repeats them.`;
		return withSentence(ctx.getNode(), error, lost, itemIndex);
	}
	if (error instanceof NodeOperationError || error instanceof NodeApiError) return error;
	return new NodeOperationError(ctx.getNode(), error, { itemIndex });
}
