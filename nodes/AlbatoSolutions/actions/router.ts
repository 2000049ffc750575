import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { AlbatoClient } from '../../shared/transport/client';
import { itemsAtOnce } from '../../shared/transport/limiter';
import { mapLimited } from '../../shared/transport/mapLimited';
import { errorItem } from './errorItem';
import { findOperation } from './index';
import { output } from './output';
import { readRequestOptions } from './requestOptions';
import { RolloutGuard } from './rolloutGuard';
import { record, type RunContext, runUnits } from './runUnits';
import {
	type BatchOperation,
	type BatchPlan,
	type ItemOperation,
	type ItemResults,
	type OperationResult,
	type PlanContext,
	Reported,
	type Unit,
} from './types';

/** A batch operation's plan, with the items it was given. */
interface Batch {
	plan: BatchPlan;
	itemIndexes: number[];
}

/**
 * The one item loop, in steps: connect (Request Options and the client), dispatch (each item's
 * operation), plan (the batch operations' units), run (one scheduler for all units), finish (what
 * completes each batch), output (pairing, continueOnFail, error output). Operations only return
 * data or throw; what all items have in common happens here.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const itemCount = this.getInputData().length;
	let run: RunContext;
	try {
		run = await connect(this);
	} catch (error) {
		return [failEveryItem(this, error as Error, itemCount)];
	}
	const { single, batched } = dispatch(run, itemCount);
	const batches = await planBatches(run, batched);
	const units = [...batches.flatMap(({ plan }) => plan.units), ...single.map(itemUnit(run))];
	await runUnits(
		run,
		units.sort((a, b) => a.itemIndexes[0] - b.itemIndexes[0]),
	);
	for (const batch of batches) await finishBatch(run, batch);
	return [output(run, itemCount)];
}

/**
 * Request Options, read once (all checked before anything is sent), and the one client that serves
 * the whole execution.
 */
async function connect(ctx: IExecuteFunctions): Promise<RunContext> {
	const { transport, rollout } = readRequestOptions(ctx);
	const continueOnFail = ctx.continueOnFail();
	const client = await AlbatoClient.create(ctx, transport);
	return {
		ctx,
		client,
		continueOnFail,
		preview: transport.preview,
		itemsInFlight: itemsAtOnce(transport.concurrency),
		guard: new RolloutGuard(rollout, continueOnFail, (itemIndex) => customerOf(client, itemIndex)),
		results: new Map(),
	};
}

/** The End User ID an item acts for (partner mode), to name it in a stop reason; else undefined. */
function customerOf(client: AlbatoClient, itemIndex: number): string | undefined {
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
function dispatch({ ctx, results }: RunContext, itemCount: number) {
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
			results.set(itemIndex, new NodeOperationError(ctx.getNode(), text, { itemIndex }));
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
function itemUnit(run: RunContext) {
	return ({ itemIndex, operation }: { itemIndex: number; operation: ItemOperation }): Unit => {
		const previewed = run.preview && operation.effect === 'write';
		const runItem = previewed ? operation.preview : operation.execute;
		const unit: Unit = {
			itemIndexes: [itemIndex],
			run: async () => new Map([[itemIndex, await runItem.call(run.ctx, run.client, itemIndex)]]),
		};
		return previewed ? previewedUnit(unit) : unit;
	};
}

/**
 * Each batch operation plans its units (`previewPlan` under Preview if it writes). Items it refuses
 * before anything is sent end here (without Continue On Fail that starts nothing else); a plan that
 * fails fails each of its items.
 */
async function planBatches(run: RunContext, batched: Map<BatchOperation, number[]>) {
	const { ctx, client, guard, preview } = run;
	const context: PlanContext = {
		preview,
		guarded: guard.active,
		inFlight: async (entries, task) =>
			await mapLimited(entries, run.itemsInFlight, async (entry) => {
				await task(entry);
				return true;
			}),
	};
	const batches: Batch[] = [];
	for (const [operation, itemIndexes] of batched) {
		const previewed = preview && operation.effect === 'write';
		const planItems = previewed ? operation.previewPlan : operation.plan;
		try {
			const plan = await planItems.call(ctx, client, itemIndexes, context);
			batches.push({ plan: previewed ? previewedPlan(plan) : plan, itemIndexes });
			record(run, plan.failed ?? new Map());
		} catch (error) {
			record(run, new Map(itemIndexes.map((itemIndex) => [itemIndex, error as Error])));
		}
	}
	return batches;
}

/**
 * What completes a batch, once every unit has ended. If it fails, so does each of the batch's items
 * that has no result yet.
 */
async function finishBatch(run: RunContext, { plan, itemIndexes }: Batch): Promise<void> {
	if (!plan.finish) return;
	try {
		record(run, await plan.finish());
	} catch (error) {
		const open = itemIndexes.filter((itemIndex) => !run.results.has(itemIndex));
		record(run, new Map(open.map((itemIndex) => [itemIndex, error as Error])));
	}
}

/** Under Preview: the same unit, its results marked `preview: true`. */
function previewedUnit(unit: Unit): Unit {
	return { itemIndexes: unit.itemIndexes, run: async () => markPreview(await unit.run()) };
}

function previewedPlan(plan: BatchPlan): BatchPlan {
	const { finish } = plan;
	return {
		units: plan.units.map(previewedUnit),
		failed: plan.failed,
		finish: finish && (async () => markPreview(await finish())),
	};
}

/**
 * `preview: true` on every result object: each one of a list; a result with reports, and each
 * report's details (its error item then says it was found in Preview).
 */
function markPreview(answers: ItemResults): ItemResults {
	const mark = (data: IDataObject) => Object.assign(data, { preview: true });
	const markResult = (result: OperationResult | Error) => {
		if (result instanceof Error) return;
		if (Array.isArray(result)) result.forEach(mark);
		else if (!(result instanceof Reported)) mark(result);
		else {
			mark(result.result);
			for (const report of result.reports) {
				const { details } = report as Error & { details?: IDataObject };
				if (details) mark(details);
			}
		}
	};
	answers.forEach(markResult);
	return answers;
}
