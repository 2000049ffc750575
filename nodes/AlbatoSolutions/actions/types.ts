import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { AlbatoClient } from '../../shared/transport/client';

export type OperationResult = IDataObject | IDataObject[];

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
 */
export interface BatchOperation {
	option: OperationOption;
	description: INodeProperties[];
	executeBatch(
		this: IExecuteFunctions,
		client: AlbatoClient,
		itemIndexes: number[],
	): Promise<Map<number, OperationResult | Error>>;
}

export type Operation = ItemOperation | BatchOperation;
