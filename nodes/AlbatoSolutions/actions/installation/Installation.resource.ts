import { describeResource } from '../describeResource';
import type { Operation } from '../types';
import * as create from './create.operation';
import * as ensure from './ensure.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getSnapshot from './getSnapshot.operation';
import * as pause from './pause.operation';
import * as start from './start.operation';
import * as upgrade from './upgrade.operation';

/**
 * The one place an operation is named: its key is its value in the Operation menu. The order is
 * the order of the operations' fields in the description (the menu itself is sorted by name).
 */
export const operations = {
	create,
	ensure,
	get,
	getAll,
	pause,
	start,
	getSnapshot,
	upgrade,
} satisfies Record<string, Operation>;

export const description = describeResource('installation', operations, 'getAll');
