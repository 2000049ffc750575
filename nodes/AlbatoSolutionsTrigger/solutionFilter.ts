import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { locatorValue } from '../shared/descriptions/common.descriptions';
import { positiveIdOf } from '../shared/readers/shapes';

/**
 * The Solution parameter, read once for every kind of event (installations and runs): a solution
 * ID, or undefined to watch everything of the end user.
 */
export function readSolutionFilter(ctx: IPollFunctions): string | undefined {
	const value = ctx.getNodeParameter('solutionId', '', { extractValue: true }) as unknown;
	const id = readIdFilter(value);
	if (id === 'bad')
		throw new NodeOperationError(
			ctx.getNode(),
			`Solution must be a solution ID (a whole number), got "${textOf(value).slice(0, 40)}"`,
			{
				description:
					'Pick a solution from the list, give its ID, or leave it empty to watch all installations and runs',
			},
		);
	return id === undefined ? undefined : String(id);
}

/**
 * A locator or a plain text (a trigger saved at version 1 holds Installation ID (Run Events) as
 * text) read as an optional ID: undefined when empty, 'bad' when not a whole number.
 */
export function readIdFilter(raw: unknown): number | undefined | 'bad' {
	const text = textOf(locatorValue(raw));
	if (text === '') return undefined;
	return positiveIdOf(text) ?? 'bad';
}

/** A locator with no value at all (n8n hands the locator object back) is no filter. */
function textOf(value: unknown): string {
	const inner = locatorValue(value);
	return inner === undefined || inner === null || typeof inner === 'object'
		? ''
		: String(inner).trim();
}
