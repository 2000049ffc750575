import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { AlbatoClient } from '../../shared/transport/client';
import { itemsAtOnce } from '../../shared/transport/limiter';
import { mapLimited } from '../../shared/transport/mapLimited';
import { errorItem } from './errorItem';
import { findOperation } from './index';
import { readRunOptions } from './runOptions';
import type { BatchOperation, ItemOperation, OperationResult } from './types';
import { withSentence } from './withSentence';

/** What each item came to: its data or its error. An item that was never started has none. */
type Outcomes = Map<number, OperationResult | Error>;

/** The items run one by one, and the items of each batch operation (run in one call). */
interface Plan {
	single: Array<{ itemIndex: number; operation: ItemOperation }>;
	batches: Map<BatchOperation, number[]>;
}

/** What has ended so far in the run step: what the decision to start another item is made from. */
interface Tally {
	done: number;
	failed: number;
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
	const { client, itemsInFlight } = connected;
	const outcomes: Outcomes = new Map();
	const plan = dispatch(this, itemCount, outcomes);
	await runBatches(this, client, plan.batches, outcomes);
	await runItems(this, client, plan.single, itemsInFlight, outcomes, mayStartNext(continueOnFail));
	return [output(this, itemCount, outcomes, continueOnFail)];
}

/** Request Options, read once, and the one client that serves the whole execution. */
async function connect(ctx: IExecuteFunctions) {
	const runOptions = readRunOptions(ctx);
	const client = await AlbatoClient.create(ctx, runOptions);
	return { client, itemsInFlight: itemsAtOnce(runOptions.concurrency) };
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
): Promise<void> {
	for (const [operation, itemIndexes] of batches) {
		try {
			const answers = await operation.executeBatch.call(ctx, client, itemIndexes);
			for (const [itemIndex, outcome] of answers) outcomes.set(itemIndex, outcome);
		} catch (error) {
			// A batch that fails as a whole fails each of its items (each then thrown, or sent to
			// the error output).
			for (const itemIndex of itemIndexes)
				if (!outcomes.has(itemIndex)) outcomes.set(itemIndex, error as Error);
		}
	}
}

/**
 * Whether the run step starts another item, asked each time one of its items ends. Today: without
 * Continue On Fail, the first failure starts no further items (those in flight finish).
 *
 * This is where the fleet rollout guard plugs in (issue 29: Canary Items first, Stop After
 * Failures): it replaces this one decision. Items it never starts get no outcome, and `output` is
 * where they are to be reported (notAttempted).
 */
function mayStartNext(continueOnFail: boolean): (tally: Tally) => boolean {
	return ({ failed }) => continueOnFail || failed === 0;
}

/**
 * Runs the items of single-item operations, `itemsInFlight` at once: 1 keeps the classic order of
 * calls; more only overlaps the waiting (under Auto the client's slow start decides how many of
 * their requests go out at once). Items start in item order.
 */
async function runItems(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	single: Plan['single'],
	itemsInFlight: number,
	outcomes: Outcomes,
	startNext: (tally: Tally) => boolean,
): Promise<void> {
	const tally: Tally = { done: 0, failed: 0 };
	await mapLimited(single, itemsInFlight, async ({ itemIndex, operation }) => {
		try {
			outcomes.set(itemIndex, await operation.execute.call(ctx, client, itemIndex));
			tally.done++;
		} catch (error) {
			outcomes.set(itemIndex, error as Error);
			tally.failed++;
		}
		return startNext(tally);
	});
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
): INodeExecutionData[] {
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		const outcome = outcomes.get(itemIndex);
		// Never started (see mayStartNext): today only after a failure without Continue On Fail,
		// which is thrown first. The rollout guard's items never started are to be reported here.
		if (outcome === undefined) continue;
		if (!(outcome instanceof Error)) {
			returnData.push(
				...ctx.helpers.constructExecutionMetaData(
					ctx.helpers.returnJsonArray(outcome as IDataObject | IDataObject[]),
					{ itemData: { item: itemIndex } },
				),
			);
		} else if (continueOnFail) {
			returnData.push(errorItem(ctx.getNode(), outcome, itemIndex));
		} else {
			throw runFailure(ctx, outcome, itemIndex, outcomes);
		}
	}
	return returnData;
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
