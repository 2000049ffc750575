import { describeResource } from '../describeResource';
import type { Operation } from '../types';
import * as checkConnection from './checkConnection.operation';
import * as getAll from './getAll.operation';
import * as getConnectionSettings from './getConnectionSettings.operation';
import * as getTemplates from './getTemplates.operation';

/**
 * The one place an operation is named: its key is its value in the Operation menu. The order is
 * the order of the operations' fields in the description (the menu itself is sorted by name).
 */
export const operations = {
	getAll,
	getConnectionSettings,
	getTemplates,
	checkConnection,
} satisfies Record<string, Operation>;

export const description = describeResource('solution', operations, 'getAll');
