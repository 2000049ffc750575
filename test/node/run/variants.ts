/**
 * The emulator variants every run-history test repeats its checks in (issue 22: "in every
 * variant").
 */
import type { Variants } from '../../../emulator/types';

export const RUN_VARIANTS: Array<[string, Partial<Variants>]> = [
	['default (levels, UTC dates)', {}],
	['flat steps', { runSteps: 'flat' }],
	['ISO dates', { runDates: 'iso' }],
	['bare bodies', { bare: true }],
	['ids as strings', { stringIds: true }],
	['lists wrapped in {items}', { wrapLists: true }],
	['lists as maps keyed by id', { listShape: 'map' }],
	['success flag as 1/0', { successFlag: 'number' }],
	['paged by headers', { pagination: 'headers' }],
	['paged by Link', { pagination: 'link' }],
	['paged in the body', { pagination: 'body' }],
	["paged with Laravel's meta", { pagination: 'meta' }],
	['step detail in a one-element list', { runStepAnswer: 'list' }],
	['statuses as words', { runStatuses: 'words' }],
];
