import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { AlbatoClient } from '../../shared/transport/client';
import type { RolloutGuard } from './rolloutGuard';

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

/** One operation file: its menu entry, its parameters, and how it runs one item. */
export interface ItemOperation {
	option: OperationOption;
	description: INodeProperties[];
	execute(
		this: IExecuteFunctions,
		client: AlbatoClient,
		itemIndex: number,
	): Promise<OperationResult>;
}

/**
 * An operation that must see all of its items at once (e.g. one pause and one start around many updates).
 * It answers one result or error per item index; the node's loop does the pairing and continueOnFail.
 * The rollout guard: ask `guard.mayStart()` before each unit of items starts (e.g. one installation's
 * updates), run the units holding canary items (`guard.isCanary`) first, and tell `guard.ended` as
 * items end; items it does not start get no result (the router reports them as not attempted).
 */
export interface BatchOperation {
	option: OperationOption;
	description: INodeProperties[];
	executeBatch(
		this: IExecuteFunctions,
		client: AlbatoClient,
		itemIndexes: number[],
		guard?: RolloutGuard,
	): Promise<Map<number, OperationResult | Error>>;
}

export type Operation = ItemOperation | BatchOperation;
