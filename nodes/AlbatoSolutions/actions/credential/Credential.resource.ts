import { describeResource } from '../describeResource';
import type { Operation } from '../types';
import * as create from './create.operation';
import * as createLink from './createLink.operation';
import * as deleteLink from './deleteLink.operation';
import * as getLinkStatus from './getLinkStatus.operation';
import * as getSchema from './getSchema.operation';
import * as refreshUserData from './refreshUserData.operation';
import * as renewLink from './renewLink.operation';

/**
 * The one place an operation is named: its key is its value in the Operation menu. The order is
 * the order of the operations' fields in the description (the menu itself is sorted by name).
 */
export const operations = {
	create,
	getSchema,
	createLink,
	getLinkStatus,
	renewLink,
	deleteLink,
	refreshUserData,
} satisfies Record<string, Operation>;

export const description = describeResource('credential', operations, 'getSchema');
