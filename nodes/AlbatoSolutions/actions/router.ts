import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { AlbatoClient } from '../../shared/transport/client';
import { itemsAtOnce } from '../../shared/transport/limiter';
import { mapLimited } from '../../shared/transport/mapLimited';
import { errorItem } from './errorItem';
import { findOperation } from './index';
import { notAttemptedItem } from './notAttempted';
import { readRequestOptions } from './requestOptions';
import { readRollout, RolloutGuard, startEach } from './rolloutGuard';
import { Reported, type BatchOperation, type ItemOperation, type OperationResult } from './types';
import { withSentence } from './withSentence';

/** What each item came to: its data or its error. An item that was never started has none. */
type Outcomes = Map<number, OperationResult | Error>;

/** The items run one by one, and the items of each batch operation (run in one call). */
interface Plan {
	single: Array<{ itemIndex: number; operation: ItemOperation }>;
	batches: Map<BatchOperation, number[]>;
}

/**
 * The one item loop, in steps: connect (Request Options and the client), dispatch (each item's
 * operation), batches, run (Items in Flight), output (pairing, continueOnFail, error output).
 * Operations only return data or throw; what all items have in common happens here.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const itemCount = this.getInputData().length;
	const continueOnFail = this.continueOnFail();
	let connected: Awaited<ReturnType<typeof connect>>;
	try {
		connected = await connect(this);
	} catch (error) {
		return [failEveryItem(this, error as Error, itemCount, continueOnFail)];
	}
	const { client, itemsInFlight, guard } = connected;
	const outcomes: Outcomes = new Map();
	const plan = dispatch(this, itemCount, outcomes);
	await runBatches(this, client, plan.batches, outcomes, guard);
	await runItems(this, client, plan.single, itemsInFlight, outcomes, guard);
	return [output(this, itemCount, outcomes, continueOnFail, guard)];
}

/** Request Options, read once (all checked before anything is sent), and the one client that serves the whole execution. */
async function connect(ctx: IExecuteFunctions) {
	const requestOptions = readRequestOptions(ctx);
	const guard = new RolloutGuard(readRollout(ctx), ctx.continueOnFail());
	const client = await AlbatoClient.create(ctx, requestOptions);
	return { client, itemsInFlight: itemsAtOnce(requestOptions.concurrency), guard };
}

/**
 * A credential or Request Options problem fails every item. Thrown, n8n would pass the input items
 * on unchanged through the success output; as error items they reach the error output.
 */
function failEveryItem(
	ctx: IExecuteFunctions,
	error: Error,
	itemCount: number,
	continueOnFail: boolean,
): INodeExecutionData[] {
	// Given a NodeOperationError, n8n's constructor returns that same error.
	if (!continueOnFail) throw new NodeOperationError(ctx.getNode(), error);
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
function dispatch(ctx: IExecuteFunctions, itemCount: number, outcomes: Outcomes): Plan {
	const fixedResource = fixedParameter(ctx, 'resource');
	const fixedOperation = fixedParameter(ctx, 'operation');
	const plan: Plan = { single: [], batches: new Map() };
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const resource = fixedResource ?? (ctx.getNodeParameter('resource', itemIndex) as string);
		const name = fixedOperation ?? (ctx.getNodeParameter('operation', itemIndex) as string);
		const operation = findOperation(resource, name);
		if (!operation) {
			const text = `The operation "${name}" of "${resource}" is not supported`;
			outcomes.set(itemIndex, new NodeOperationError(ctx.getNode(), text, { itemIndex }));
		} else if ('executeBatch' in operation) {
			const batch = plan.batches.get(operation);
			if (batch) batch.push(itemIndex);
			else plan.batches.set(operation, [itemIndex]);
		} else {
			plan.single.push({ itemIndex, operation });
		}
	}
	return plan;
}

/** Each batch operation gets all of its items in one call, and answers per item. */
async function runBatches(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	batches: Plan['batches'],
	outcomes: Outcomes,
	guard: RolloutGuard,
): Promise<void> {
	for (const [operation, itemIndexes] of batches) {
		if (!guard.mayStart()) return;
		try {
			// The operation asks the guard before each of its units (e.g. an installation) starts.
			const answers = await operation.executeBatch.call(ctx, client, itemIndexes, guard);
			for (const [itemIndex, outcome] of answers) outcomes.set(itemIndex, outcome);
		} catch (error) {
			// A batch that fails as a whole fails each of its items (each then thrown, or sent to
			// the error output).
			for (const itemIndex of itemIndexes)
				if (!outcomes.has(itemIndex)) outcomes.set(itemIndex, error as Error);
		}
		// Counted once each: what the operation did not tell the guard as it went.
		for (const itemIndex of itemIndexes) {
			const outcome = outcomes.get(itemIndex);
			if (outcome !== undefined) guard.ended(outcome instanceof Error, itemIndex);
		}
	}
}

/**
 * Runs the items of single-item operations, `itemsInFlight` at once: 1 keeps the classic order of
 * calls; more only overlaps the waiting (under Auto the client's slow start decides how many of
 * their requests go out at once). Items start in item order: the canary items first, all of them
 * to the end, then the others. The rollout guard (rolloutGuard.ts) is asked each time an item
 * ends; without Continue On Fail the first failure starts no further items (those in flight
 * finish). Items it never starts get no outcome: `output` reports them (notAttempted).
 */
async function runItems(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	single: Plan['single'],
	itemsInFlight: number,
	outcomes: Outcomes,
	guard: RolloutGuard,
): Promise<void> {
	const run = async ({ itemIndex, operation }: Plan['single'][number]) => {
		let failed = false;
		try {
			outcomes.set(itemIndex, await operation.execute.call(ctx, client, itemIndex));
		} catch (error) {
			outcomes.set(itemIndex, error as Error);
			failed = true;
		}
		guard.ended(failed, itemIndex);
		return guard.mayStart();
	};
	// With a guard option set, items start as the client's window allows (not all at once under Auto).
	const each = (entries: Plan['single']) =>
		guard.active
			? startEach(entries, () => Math.min(itemsInFlight, client.window), run)
			: mapLimited(entries, itemsInFlight, run);
	if (!guard.mayStart()) return;
	await each(single.filter((entry) => guard.isCanary(entry.itemIndex)));
	if (!guard.mayStart()) return;
	await each(single.filter((entry) => !guard.isCanary(entry.itemIndex)));
}

/**
 * The output in item order, each item paired to its input. A failed item goes to the error output
 * under Continue On Fail; without it, the first failed item (in item order) fails the run.
 */
function output(
	ctx: IExecuteFunctions,
	itemCount: number,
	outcomes: Outcomes,
	continueOnFail: boolean,
	guard: RolloutGuard,
): INodeExecutionData[] {
	const notAttempted = itemCount - outcomes.size;
	// With a guard option set, its message fails the node: why it stopped, and the counts.
	if (notAttempted > 0 && guard.active && !continueOnFail)
		throw stoppedRun(ctx, guard, notAttempted, itemCount, outcomes);
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const outcome = outcomes.get(itemIndex);
		// Never started: reported under Continue On Fail (the guard stopped the run). Without it the
		// first failure is thrown below (or stoppedRun was).
		if (outcome === undefined) {
			if (continueOnFail)
				returnData.push(
					notAttemptedItem(
						ctx.getNode(),
						guard.notAttemptedError(ctx.getNode(), itemIndex, notAttempted),
					),
				);
			continue;
		}
		if (outcome instanceof Reported) {
			returnData.push(...successItems(ctx, outcome.result, itemIndex));
			for (const report of outcome.reports) {
				if (!continueOnFail) throw runFailure(ctx, report, itemIndex, outcomes);
				returnData.push(errorItem(ctx.getNode(), report, itemIndex));
			}
		} else if (!(outcome instanceof Error)) {
			returnData.push(...successItems(ctx, outcome, itemIndex));
		} else if (continueOnFail) {
			returnData.push(errorItem(ctx.getNode(), outcome, itemIndex));
		} else {
			throw runFailure(ctx, outcome, itemIndex, outcomes);
		}
	}
	return returnData;
}

function successItems(
	ctx: IExecuteFunctions,
	result: IDataObject | IDataObject[],
	itemIndex: number,
): INodeExecutionData[] {
	return ctx.helpers.constructExecutionMetaData(ctx.helpers.returnJsonArray(result), {
		itemData: { item: itemIndex },
	});
}

/** The rollout guard stopped the run without Continue On Fail: its message, and the first failure. */
function stoppedRun(
	ctx: IExecuteFunctions,
	guard: RolloutGuard,
	notAttempted: number,
	itemCount: number,
	outcomes: Outcomes,
): NodeOperationError {
	const firstFailed = [...outcomes]
		.filter(([, outcome]) => outcome instanceof Error)
		.sort(([a], [b]) => a - b)[0];
	const skipped = Array.from({ length: itemCount }, (_item, index) => index).filter(
		(index) => !outcomes.has(index),
	);
	const first = firstFailed
		? `The first failure: item ${firstFailed[0]}: ${(firstFailed[1] as Error).message}. `
		: '';
	return new NodeOperationError(ctx.getNode(), guard.notAttemptedMessage(notAttempted), {
		itemIndex: firstFailed?.[0] ?? skipped[0],
		description: `${first}Items not attempted (nothing sent for them): ${skipped.join(', ')}. Items that completed are not in the output; running the workflow again over the same items writes nothing for those already done (Installation → Ensure; Start and Pause with Skip If Already in Status).`,
	});
}

/**
 * The error that fails the run, with its item index. Items in flight may have completed after this
 * one (in item order they would not have run): their output is lost with the thrown error, so the
 * error names them.
 */
function runFailure(
	ctx: IExecuteFunctions,
	error: Error,
	itemIndex: number,
	outcomes: Outcomes,
): NodeOperationError | NodeApiError {
	const later = [...outcomes]
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
