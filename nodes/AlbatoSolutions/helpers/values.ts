import type { IDataObject } from 'n8n-workflow';

/** The service sends ids as numbers or numeric strings; compare them as strings. */
export function sameId(a: unknown, b: unknown): boolean {
	return a !== undefined && a !== null && String(a) === String(b);
}

export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Lists may come bare (`[...]`) or wrapped (`{ items: [...] }`, `{ data: [...] }`, `{ list: [...] }`);
 * both are accepted so a change of the beta service's layout does not break users.
 */
export function asList(data: unknown): IDataObject[] {
	return listIn(data) ?? [];
}

/** Whether `asList` finds an actual list in the body (and not merely nothing). */
export function holdsList(data: unknown): boolean {
	return listIn(data) !== undefined;
}

function listIn(data: unknown): IDataObject[] | undefined {
	if (Array.isArray(data)) return data as IDataObject[];
	if (isObject(data)) {
		for (const key of ['items', 'data', 'list', 'results']) {
			const inner = data[key];
			if (Array.isArray(inner)) return inner as IDataObject[];
		}
	}
	return undefined;
}
