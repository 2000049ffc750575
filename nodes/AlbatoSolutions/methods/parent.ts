import type { ILoadOptionsFunctions } from 'n8n-workflow';

/**
 * The value of a parent parameter (locator or plain), or undefined while it is empty or still an
 * expression the editor cannot resolve: then the picker shows nothing and sends no request.
 */
export function parentId(ctx: ILoadOptionsFunctions, name: string): string | undefined {
	let value: unknown;
	try {
		value = ctx.getCurrentNodeParameter(name, { extractValue: true });
	} catch {
		return undefined;
	}
	if (value && typeof value === 'object' && 'value' in value) value = (value as { value: unknown }).value;
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	return /^[1-9]\d*$/.test(text) ? text : undefined;
}
