/**
 * The probe's words for a value it reads: what a body is (`describe`), its keys, and the list in it.
 * Only keys and types, never values.
 */
export type Json = unknown;

export const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** The keys a list may be wrapped under. */
export const LIST_KEYS = ['items', 'data', 'list', 'results'];

export const keys = (value: unknown) =>
	isObject(value) ? Object.keys(value).join(', ') : describe(value);

export function describe(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return `a list of ${value.length}`;
	if (isObject(value)) return `an object {${Object.keys(value).slice(0, 8).join(', ')}}`;
	return typeof value;
}

/** Whether a value is an object of objects: a map keyed by id. */
export const keyedById = (value: unknown): value is Record<string, object> =>
	isObject(value) &&
	!LIST_KEYS.some((key) => Array.isArray(value[key])) &&
	Object.values(value).length > 0 &&
	Object.values(value).every(isObject);

/** The list in a value (bare, wrapped, or a map keyed by id); an empty list, told as unknown, when none. */
export function listOf(
	value: Json,
	shape: string,
	unknown: (shape: string, what: string) => void,
): unknown[] {
	if (Array.isArray(value)) return value;
	if (isObject(value)) {
		for (const key of LIST_KEYS) if (Array.isArray(value[key])) return value[key] as unknown[];
		if (keyedById(value)) return Object.entries(value).map(([k, v]) => ({ id: k, ...v }));
	}
	unknown(shape, `not a list (${describe(value)})`);
	return [];
}

/** An installation's body, taken out of an {installation} wrapper when it is wrapped. */
export function installationOf(body: Json): { wrapped: boolean; installation: Json } {
	const wrapped = isObject(body) && isObject(body.installation) && body.id === undefined;
	return { wrapped, installation: wrapped ? (body as { installation: Json }).installation : body };
}
