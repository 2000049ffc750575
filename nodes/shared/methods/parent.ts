import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { locatorValue } from '../descriptions/common.descriptions';
import { positiveIdOf } from '../readers/shapes';

/**
 * The value of a parent parameter (locator or plain), or undefined while it is empty or still an
 * expression the editor cannot resolve: then the picker shows nothing and sends no request.
 */
export function parentId(ctx: ILoadOptionsFunctions, name: string): number | undefined {
	let value: unknown;
	try {
		value = ctx.getCurrentNodeParameter(name, { extractValue: true });
	} catch {
		return undefined;
	}
	return positiveIdOf(locatorValue(value));
}
