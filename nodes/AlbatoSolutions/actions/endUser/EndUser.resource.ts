import { describeResource } from '../describeResource';
import type { Operation } from '../types';
import * as create from './create.operation';
import * as deleteOperation from './delete.operation';
import * as get from './get.operation';
import * as getOwnConnection from './getOwnConnection.operation';
import * as getOwnConnectionFields from './getOwnConnectionFields.operation';
import * as getToken from './getToken.operation';
import * as setOwnConnection from './setOwnConnection.operation';
import * as setPlan from './setPlan.operation';
// Billing: plans, extra transactions, block
import * as addTransactions from './addTransactions.operation';
import * as block from './block.operation';
import * as getPlans from './getPlans.operation';

/**
 * The one place an operation is named: its key is its value in the Operation menu. The order is
 * the order of the operations' fields in the description (the menu itself is sorted by name).
 */
export const operations = {
	create,
	getToken,
	get,
	setPlan,
	delete: deleteOperation,
	setOwnConnection,
	getOwnConnection,
	getOwnConnectionFields,
	// Billing: plans, extra transactions, block
	getPlans,
	addTransactions,
	block,
} satisfies Record<string, Operation>;

export const description = describeResource('endUser', operations, 'create');
