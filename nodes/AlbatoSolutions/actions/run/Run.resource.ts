import { describeResource } from '../describeResource';
import type { Operation } from '../types';
import * as getAll from './getAll.operation';
import * as getNew from './getNew.operation';
import * as getStep from './getStep.operation';

/**
 * The one place an operation is named: its key is its value in the Operation menu. The order is
 * the order of the operations' fields in the description (the menu itself is sorted by name).
 */
export const operations = { getAll, getNew, getStep } satisfies Record<string, Operation>;

export const description = describeResource('run', operations, 'getAll');
