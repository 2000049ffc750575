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
 * Items of a batch operation that run together and end together (e.g. one installation's updates:
 * one pause, the PUTs, one start). `run` answers a result or error per item it ran; an item it has
 * no answer for yet may get one from the plan's `finish`. The router's scheduler decides when a
 * unit starts (canary units first, Items in Flight, the rollout guard); a unit that holds a canary
 * item is a canary unit: if any of its items fails, no other unit starts.
 */
export interface Unit {
	itemIndexes: number[];
	run(): Promise<ItemResults>;
}

/** How a batch operation's items run. */
export interface BatchPlan {
	units: Unit[];
	/** Items refused before anything is sent (e.g. bad input): they start no unit of their own. */
	failed?: ItemResults;
	/**
	 * Runs once every unit has ended, or the run stopped: what completes the batch (e.g. Get New's
	 * one gate for all customers read). Its answers replace the units' (e.g. an error for every
	 * item); if it throws, each item of the batch without a result fails with that error.
	 */
	finish?(): Promise<ItemResults>;
}

/** What the router tells a batch operation's plan about the whole execution. */
export interface PlanContext {
	/** Request Options → Preview is on (a read operation may need it: Get New keeps no memory). */
	preview: boolean;
	/**
	 * The rollout guard is on (Canary Items or Stop After Failures): it judges each unit as it ends,
	 * so units should be as small as the operation allows.
	 */
	guarded: boolean;
	/** Runs `task` for each entry, up to Items in Flight at once (for work done in `finish`). */
	inFlight<T>(entries: T[], task: (entry: T) => Promise<void>): Promise<void>;
}

/** Plans all items of a batch operation at once (each item's parameters read first). */
type PlanItems = (
	this: IExecuteFunctions,
	client: AlbatoClient,
	itemIndexes: number[],
	context: PlanContext,
) => Promise<BatchPlan>;

/** A batch operation that only reads. */
export interface ReadBatchOperation extends Described {
	effect: 'read';
	plan: PlanItems;
}

/** A batch operation that may change the service: `previewPlan` under Request Options → Preview. */
export interface WriteBatchOperation extends Described {
	effect: 'write';
	plan: PlanItems;
	previewPlan: PlanItems;
}

/**
 * An operation that must see all of its items at once (e.g. one pause and one start around many
 * updates): it plans units, the router runs them.
 */
export type BatchOperation = ReadBatchOperation | WriteBatchOperation;

export type Operation = ItemOperation | BatchOperation;
