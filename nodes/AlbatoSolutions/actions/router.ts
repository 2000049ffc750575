import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { AlbatoClient } from '../../shared/transport/client';
import { itemsAtOnce } from '../../shared/transport/limiter';
import { mapLimited } from '../../shared/transport/mapLimited';
import { errorItem } from './errorItem';
import { findOperation } from './index';
import { readRunOptions } from './runOptions';
import type { ItemOperation, Operation, OperationResult } from './types';

/** A parameter's value when it is not an expression (then it is the same for every item). */
function fixedParameter(ctx: IExecuteFunctions, name: string): string | undefined {
	const raw = ctx.getNodeParameter(name, 0, undefined, { rawExpressions: true }) as unknown;
	return typeof raw === 'string' && !raw.startsWith('=') ? raw : undefined;
}

/**
 * The one item loop: per-item dispatch (resource and operation may be expressions), pairedItem on
 * every output, continueOnFail, and itemIndex on every error. Operations only return data.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	let runOptions: ReturnType<typeof readRunOptions>;
	let client: AlbatoClient;
	try {
		runOptions = readRunOptions(this);
		client = await AlbatoClient.create(this, runOptions);
	} catch (error) {
		// A credential or Request Options problem fails every item. Thrown, n8n would pass the input
		// items on unchanged through the success output; as error items they reach the error output.
		if (!continueOnFail) throw new NodeOperationError(this.getNode(), error as Error); // returns the same NodeOperationError
		return [items.map((_item, itemIndex) => errorItem(this.getNode(), error as Error, itemIndex))];
	}

	// Each item's operation; batch operations get all of their items in one call. Resource and
	// operation are read per item only when they are expressions: a fixed value is the same for all.
	const fixedResource = fixedParameter(this, 'resource');
	const fixedOperation = fixedParameter(this, 'operation');
	const outcomes = new Map<number, OperationResult | Error>();
	const single: Array<{ itemIndex: number; operation: ItemOperation }> = [];
	const batches = new Map<Operation, number[]>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const resource = fixedResource ?? (this.getNodeParameter('resource', itemIndex) as string);
		const operationName =
			fixedOperation ?? (this.getNodeParameter('operation', itemIndex) as string);
		const operation = findOperation(resource, operationName);
		if (!operation) {
			outcomes.set(
				itemIndex,
				new NodeOperationError(
					this.getNode(),
					`The operation "${operationName}" of "${resource}" is not supported`,
					{ itemIndex },
				),
			);
		} else if ('executeBatch' in operation) {
			const batch = batches.get(operation);
			if (batch) batch.push(itemIndex);
			else batches.set(operation, [itemIndex]);
		} else {
			single.push({ itemIndex, operation });
		}
	}

	for (const [operation, itemIndexes] of batches) {
		if (!('executeBatch' in operation)) continue;
		try {
			for (const [itemIndex, outcome] of await operation.executeBatch.call(
				this,
				client,
				itemIndexes,
			)) {
				outcomes.set(itemIndex, outcome);
			}
		} catch (error) {
			// A batch that fails as a whole fails each of its items (each then thrown or sent to the error output).
			for (const itemIndex of itemIndexes)
				if (!outcomes.has(itemIndex)) outcomes.set(itemIndex, error as Error);
		}
	}
	// Items in flight at once: 1 keeps the classic order of calls; more only overlaps the waiting.
	// Under Auto the client's slow start decides how many of their requests go out at once.
	await mapLimited(
		single,
		itemsAtOnce(runOptions.concurrency),
		async ({ itemIndex, operation }) => {
			try {
				outcomes.set(itemIndex, await operation.execute.call(this, client, itemIndex));
			} catch (error) {
				outcomes.set(itemIndex, error as Error);
				// Without continueOnFail the run stops at the first failure: start no further items.
				return continueOnFail;
			}
			return true;
		},
	);

	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const outcome = outcomes.get(itemIndex);
		if (outcome === undefined) continue;
		if (outcome instanceof Error) {
			if (continueOnFail) {
				returnData.push(errorItem(this.getNode(), outcome, itemIndex));
				continue;
			}
			const error =
				outcome instanceof NodeOperationError || outcome instanceof NodeApiError
					? outcome
					: new NodeOperationError(this.getNode(), outcome, { itemIndex });
			// Items in flight may have completed after this one (in item order they would not have run):
			// their output is lost with the thrown error, so the error names them.
			const later = [...outcomes]
				.filter(([index, other]) => index > itemIndex && !(other instanceof Error))
				.map(([index]) => index);
			if (later.length) {
				error.description = `${error.description ? `${error.description} ` : ''}Item${later.length > 1 ? 's' : ''} ${later.sort((a, b) => a - b).join(', ')} had already completed (Items in Flight): their output is lost with this error, and running the workflow again repeats them.`;
			}
			throw error;
		}
		const executionData = this.helpers.constructExecutionMetaData(
			this.helpers.returnJsonArray(outcome as IDataObject | IDataObject[]),
			{ itemData: { item: itemIndex } },
		);
		returnData.push(...executionData);
	}
	return [returnData];
}
