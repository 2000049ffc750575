import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { AlbatoClient } from '../../shared/transport/client';

export type OperationResult = IDataObject | IDataObject[];

/** One operation file: its parameters, and how it runs one item. */
export interface ItemOperation {
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
	description: INodeProperties[];
	executeBatch(
		this: IExecuteFunctions,
		client: AlbatoClient,
		itemIndexes: number[],
	): Promise<Map<number, OperationResult | Error>>;
}

export type Operation = ItemOperation | BatchOperation;
