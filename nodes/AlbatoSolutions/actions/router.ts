import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { AlbatoClient } from '../../shared/transport/client';
import { errorItem } from './errorItem';
import { markPreview, NodeExecution, previewed } from './execution';
import { findOperation } from './index';
import { output } from './output';
import { readRequestOptions } from './requestOptions';
import { RolloutGuard } from './rolloutGuard';
import { executeUnits } from './scheduler';
import type { BatchOperation, BatchPlan, ItemOperation, Unit } from './types';

/** A batch operation's plan, with the items it was given. */
interface Batch {
	plan: BatchPlan;
	itemIndexes: number[];
}

/**
 * The one item loop, in steps: connect (Request Options and the client), dispatch (each item's
 * operation), read and plan (the batch operations' jobs and units), run (one scheduler for all
 * units), finish (what completes each batch), output (pairing, continueOnFail, error output).
 * Operations only return data or throw, and units report each item as it ends; what all items have
 * in common happens here.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const itemCount = this.getInputData().length;
	let execution: NodeExecution;
	try {
		execution = await connect(this);
	} catch (error) {
		return [failEveryItem(this, error as Error, itemCount)];
	}
	const { single, batched } = dispatch(execution, itemCount);
	const batches = await planBatches(execution, batched);
	const units = [...batches.flatMap(({ plan }) => plan.units), ...single.map(itemUnit(execution))];
	await executeUnits(
		execution,
		units.sort((a, b) => a.itemIndexes[0] - b.itemIndexes[0]),
	);
	for (const batch of batches) await finishBatch(execution, batch);
	return [output(execution, itemCount)];
}

/**
 * Request Options, read once (all checked before anything is sent), and the one client that serves
 * the whole execution.
 */
async function connect(ctx: IExecuteFunctions): Promise<NodeExecution> {
	const { transport, rollout } = readRequestOptions(ctx);
	const continueOnFail = ctx.continueOnFail();
	const client = await AlbatoClient.create(ctx, transport);
	return new NodeExecution({
		ctx,
		client,
		continueOnFail,
		preview: transport.preview,
		itemsInFlight: transport.concurrency,
		guard: new RolloutGuard(rollout, continueOnFail, (itemIndex) => endUserIdOf(client, itemIndex)),
	});
}

/** The End User ID an item acts for (partner mode), to name it in a stop reason; else undefined. */
function endUserIdOf(client: AlbatoClient, itemIndex: number): string | undefined {
	try {
		return client.partner?.endUserId(itemIndex);
	} catch {
		return undefined;
	}
}

/**
 * A credential or Request Options problem fails every item. Thrown, n8n would pass the input items
 * on unchanged through the success output; as error items they reach the error output.
 */
function failEveryItem(
	ctx: IExecuteFunctions,
	error: Error,
	itemCount: number,
): INodeExecutionData[] {
	// Given a NodeOperationError, n8n's constructor returns that same error.
	if (!ctx.continueOnFail()) throw new NodeOperationError(ctx.getNode(), error);
	return Array.from({ length: itemCount }, (_item, itemIndex) =>
		errorItem(ctx.getNode(), error, itemIndex),
	);
}

/** A parameter's value when it is not an expression (then it is the same for every item). */
function fixedParameter(ctx: IExecuteFunctions, name: string): string | undefined {
	const raw = ctx.getNodeParameter(name, 0, undefined, { rawExpressions: true }) as unknown;
	return typeof raw === 'string' && !raw.startsWith('=') ? raw : undefined;
}

/**
 * Each item's operation, found in the dispatch table (index.ts). Resource and operation may be
 * expressions, so they are read per item, unless fixed. An unknown operation fails its item here.
 */
function dispatch(execution: NodeExecution, itemCount: number) {
	const { ctx } = execution;
	const fixedResource = fixedParameter(ctx, 'resource');
	const fixedOperation = fixedParameter(ctx, 'operation');
	const single: Array<{ itemIndex: number; operation: ItemOperation }> = [];
	const batched = new Map<BatchOperation, number[]>();
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const resource = fixedResource ?? (ctx.getNodeParameter('resource', itemIndex) as string);
		const name = fixedOperation ?? (ctx.getNodeParameter('operation', itemIndex) as string);
		const operation = findOperation(resource, name);
		if (!operation) {
			const text = `The operation "${name}" of "${resource}" is not supported`;
			execution.ended(itemIndex, new NodeOperationError(ctx.getNode(), text, { itemIndex }));
		} else if ('plan' in operation) {
			const itemIndexes = batched.get(operation);
			if (itemIndexes) itemIndexes.push(itemIndex);
			else batched.set(operation, [itemIndex]);
		} else {
			single.push({ itemIndex, operation });
		}
	}
	return { single, batched };
}

/** An item of a single-item operation, as a unit of one: `preview` under Preview if it writes. */
function itemUnit(execution: NodeExecution) {
	return ({ itemIndex, operation }: { itemIndex: number; operation: ItemOperation }): Unit => {
		const previewing = execution.preview && operation.effect === 'write';
		const runItem = previewing ? operation.preview : operation.execute;
		return {
			itemIndexes: [itemIndex],
			execute: async () => {
				const result = await runItem.call(execution.ctx, execution.client, itemIndex);
				execution.ended(itemIndex, previewing ? markPreview(result) : result);
			},
		};
	};
}

/**
 * Each batch operation reads its items as jobs, then plans their units (`previewPlan` under Preview
 * if it writes). An item whose reading fails ends here; without Continue On Fail the reading stops
 * at the first, and nothing else starts. A plan that fails fails each of its items.
 */
async function planBatches(execution: NodeExecution, batched: Map<BatchOperation, number[]>) {
	const batches: Batch[] = [];
	for (const [operation, itemIndexes] of batched) {
		const previewing = execution.preview && operation.effect === 'write';
		const seen = previewing ? previewed(execution) : execution;
		try {
			const jobs = readJobs(execution, operation, itemIndexes);
			const plan =
				operation.effect === 'write' && previewing
					? await operation.previewPlan(jobs, seen)
					: await operation.plan(jobs, seen);
			batches.push({ plan, itemIndexes });
		} catch (error) {
			execution.failOpen(itemIndexes, error as Error);
		}
	}
	return batches;
}

/** Every item's job, read before anything is sent; without Continue On Fail, up to the first bad one. */
function readJobs(execution: NodeExecution, operation: BatchOperation, itemIndexes: number[]) {
	const jobs: unknown[] = [];
	for (const itemIndex of itemIndexes) {
		try {
			jobs.push(operation.read.call(execution.ctx, execution.client, itemIndex));
		} catch (error) {
			execution.ended(itemIndex, error as Error);
			if (!execution.continueOnFail) break;
		}
	}
	return jobs;
}

/**
 * What completes a batch, once every unit has ended; not run when the node fails anyway (its
 * answers would be lost with the run). If it fails, so does each of the batch's items that has no
 * result yet.
 */
async function finishBatch(execution: NodeExecution, { plan, itemIndexes }: Batch): Promise<void> {
	if (!plan.finish || execution.failing) return;
	try {
		await plan.finish();
	} catch (error) {
		execution.failOpen(itemIndexes, error as Error);
	}
}
