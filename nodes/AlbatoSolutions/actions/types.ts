import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { AlbatoClient } from '../../shared/transport/client';

/**
 * An item's result, and what it found beside it that needs attention (e.g. Ensure's other active
 * installations with the same title): the router outputs the result, and each report as an error
 * item paired to the same input item (the error output under "Continue (using error output)";
 * without Continue On Fail the first report fails the run).
 */
export class Reported {
	constructor(
		readonly result: IDataObject,
		readonly reports: Error[],
	) {}
}

export type OperationResult = IDataObject | IDataObject[] | Reported;

/** What each item came to, by item index: its data or its error. An item never started has none. */
export type ItemResults = Map<number, OperationResult | Error>;

/**
 * An operation's entry in its resource's Operation menu. Its value is its key in the resource's
 * `operations` map, so the name is written once; `describeResource` sorts the entries by name.
 */
export interface OperationOption {
	/** Title Case, e.g. "Get Many" (value `getAll`). */
	name: string;
	/** Sentence case, e.g. "Start an installation": n8n's actions panel and AI agents show it. */
	action: string;
	description: string;
}

/** What every operation file exports besides how it runs: its menu entry and its parameters. */
interface Described {
	option: OperationOption;
	description: INodeProperties[];
}

/** Runs one item: returns its data, or throws its error. */
type RunItem = (
	this: IExecuteFunctions,
	client: AlbatoClient,
	itemIndex: number,
) => Promise<OperationResult>;

/** An operation that only reads: Request Options → Preview runs it as usual. */
export interface ReadItemOperation extends Described {
	effect: 'read';
	execute: RunItem;
}

/**
 * An operation that may change the service. Under Request Options → Preview the router runs
 * `preview` instead of `execute`: it checks the input, reads what it needs, sends no write, and
 * answers the output the real run would give (the router adds `preview: true`). The client refuses
 * any write while in Preview, so a preview that tries one fails instead of writing.
 */
export interface WriteItemOperation extends Described {
	effect: 'write';
	execute: RunItem;
	preview: RunItem;
}

/** One operation file that runs item by item. */
export type ItemOperation = ReadItemOperation | WriteItemOperation;

/**
 * What a unit (and a batch operation's plan) sees of the router's one execution. Results and the
 * stop rule live in the router; a unit only reports each item as it ends and asks whether it may go
 * on.
 */
export interface Execution {
	readonly ctx: IExecuteFunctions;
	readonly client: AlbatoClient;
	/** Request Options → Preview (a read operation may need it: Get New keeps no memory). */
	readonly preview: boolean;
	/**
	 * The rollout guard is on (Canary Items or Stop After Failures): it judges each item as it ends,
	 * so units should be as small as the operation allows.
	 */
	readonly guarded: boolean;
	/**
	 * The node is set to "Continue (using error output)": an item that succeeded but left something
	 * to be told (an installation left paused) leaves through the error output instead.
	 */
	readonly errorOutput: boolean;
	/**
	 * Whether more work may start: false once the rollout guard stops the run (without Continue On
	 * Fail: the first failure). Work already sent finishes, and what it paused is started again.
	 */
	mayGoOn(): boolean;
	/**
	 * An item ended with its data or error. A later call for the same item replaces its result (e.g.
	 * "also left paused"); the rollout guard counts the first.
	 */
	ended(itemIndex: number, result: OperationResult | Error): void;
	/**
	 * Without Continue On Fail, the node fails with this error once every unit has ended (e.g. an
	 * installation paused for an update that could not be started again); with it, the items
	 * already say so.
	 */
	failsAtEnd(error: Error): void;
	/** Runs `task` for each entry, up to Items in Flight at once (for work done in `finish`). */
	inFlight<T>(entries: T[], task: (entry: T) => Promise<void>): Promise<void>;
}

/**
 * Items of a batch operation that run together and end together (e.g. one installation's updates:
 * one pause, the PUTs, one start). `execute` reports each item through `Execution.ended` as it ends;
 * an item it reports nothing for may get its result from the plan's `finish`, and if `execute` throws,
 * each of its items without a result fails with that error. The router's scheduler decides when a
 * unit starts (canary units first, Items in Flight, the rollout guard); a unit that holds a canary
 * item is a canary unit: if any of its items fails, no other unit starts.
 */
export interface Unit {
	itemIndexes: number[];
	execute(): Promise<void>;
}

/** How a batch operation's items run. */
export interface BatchPlan {
	units: Unit[];
	/**
	 * Runs once every unit has ended, or the run stopped: what completes the batch (e.g. Get New's
	 * one gate for all customers read), reporting through `Execution.ended`. Not run when the node
	 * fails anyway (a failure without Continue On Fail). If it throws, each item of the batch
	 * without a result fails with that error.
	 */
	finish?(): Promise<void>;
}

/**
 * A batch operation: it only reads each item (`read`, checked before anything is sent; the router
 * loops, pairs and stops) and plans units for the jobs read (`plan`; a writing one `previewPlan`
 * under Request Options → Preview). The router runs the units.
 */
interface BatchOf<Job> extends Described {
	/** One item's job, read and checked before anything is sent: bad input throws. */
	read(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number): Job;
	plan(jobs: Job[], execution: Execution): BatchPlan | Promise<BatchPlan>;
}

/** A batch operation that only reads. */
export interface ReadBatchOperation<Job = unknown> extends BatchOf<Job> {
	effect: 'read';
}

/** A batch operation that may change the service: `previewPlan` under Request Options → Preview. */
export interface WriteBatchOperation<Job = unknown> extends BatchOf<Job> {
	effect: 'write';
	previewPlan(jobs: Job[], execution: Execution): BatchPlan | Promise<BatchPlan>;
}

/**
 * An operation that must see all of its items at once (e.g. one pause and one start around many
 * updates): it reads its items as jobs and plans units, the router runs them.
 */
export type BatchOperation = ReadBatchOperation | WriteBatchOperation;

export type Operation = ItemOperation | BatchOperation;
