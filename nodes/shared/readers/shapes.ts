/**
 * Every shape the service may send, read in one place. The spec leaves most layouts "not shown" and
 * Albato's public docs show more than one, so each reader accepts every plausible variant and
 * returns one normal form: operations, pickers, mappers and the trigger see the same data whatever
 * the service sent. Pure: imports nothing of ours above it (unit-tested, and the emulator's
 * variants prove it).
 */
import type { IDataObject } from 'n8n-workflow';

export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------- envelope

const SUCCESS_FLAGS = new Map<unknown, boolean>([
	[true, true],
	[false, false],
	['true', true],
	['false', false],
	[1, true],
	[0, false],
	['1', true],
	['0', false],
]);

/**
 * The envelope's `success` flag: `true`/`false` (documented), or as PHP services also write it,
 * `"true"`/`"false"`, `1`/`0`, `"1"`/`"0"`; undefined when absent or anything else (then the body
 * is not read as an envelope). A `false` is a failure whatever the HTTP status.
 */
export function successFlagOf(body: unknown): boolean | undefined {
	if (!isObject(body)) return undefined;
	const flag = body.success;
	return SUCCESS_FLAGS.get(typeof flag === 'string' ? flag.trim().toLowerCase() : flag);
}

/** The data of an answer: what the `{success, data}` envelope holds, or a bare body as it is. */
export function unwrapEnvelope(body: unknown): unknown {
	return isObject(body) && successFlagOf(body) !== undefined && 'data' in body ? body.data : body;
}

const LIST_KEYS = ['items', 'data', 'list', 'results'];

/**
 * A list of records: bare (`[...]`), wrapped (`{ items: [...] }`, `{ data: [...] }`,
 * `{ list: [...] }`, `{ results: [...] }`), or a map keyed by id (`{"9001": {...}}`, as the
 * detail's `bundles` is): the key becomes the record's `id` when it has none. `extraKeys` are
 * further wrappers to look inside (e.g. `steps`).
 */
export function listOrMap(data: unknown, extraKeys: string[] = []): IDataObject[] {
	return listOrMapIn(data, extraKeys) ?? [];
}

/**
 * Whether a body holds a list at all (bare, wrapped, or a map keyed by id). An empty body, `null`
 * or an object without a list does not: read as "none", it would make old records look removed.
 */
export function holdsList(data: unknown, extraKeys: string[] = []): boolean {
	return listOrMapIn(data, extraKeys) !== undefined;
}

function listOrMapIn(data: unknown, extraKeys: string[]): IDataObject[] | undefined {
	if (Array.isArray(data)) return data.filter(isObject);
	if (!isObject(data)) return undefined;
	for (const key of [...LIST_KEYS, ...extraKeys]) {
		const inner = data[key];
		if (Array.isArray(inner)) return inner.filter(isObject);
		if (!isObject(inner)) continue;
		// `data` without a success flag beside it is an envelope too: `{data: {items: [...]}}` or
		// `{data: {"5001": {...}}}` holds the list, never a record with the id "data".
		if (key === 'data') {
			// An empty `data` object is an empty map, not a record beside `meta` or `links`.
			if (Object.keys(inner).length === 0) return [];
			const nested = listOrMapIn(inner, extraKeys);
			if (nested !== undefined) return nested;
		} else if (Object.values(inner).every(isObject)) return listOrMapIn(inner, []);
	}
	const entries = Object.entries(data);
	if (entries.length === 0 || !entries.every(([, value]) => isObject(value))) return undefined;
	return entries.map(([key, value]) => ({
		...(value as IDataObject),
		id: (value as IDataObject).id ?? key,
	}));
}

// ---------------------------------------------------------------- ids

/**
 * The one id parser: a whole number (sent as 5001 or "5001") becomes a number, any other non-empty
 * value its trimmed text; undefined when absent. Everything that reads an id from the service uses
 * it.
 */
export function idOf(value: unknown): number | string | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (text === '') return undefined;
	return /^\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : text;
}

/**
 * An id a user gives (a parameter, a picker's parent, a template list): what idOf reads, when that
 * is a whole number from 1 up; undefined otherwise. The service's own ids may be text; a user's may
 * not.
 */
export function positiveIdOf(value: unknown): number | undefined {
	const id = idOf(value);
	return typeof id === 'number' && Number.isSafeInteger(id) && id >= 1 ? id : undefined;
}

/** Ids compared whatever their type ("5001" = 5001); an absent id equals nothing. */
export function sameId(a: unknown, b: unknown): boolean {
	const [x, y] = [idOf(a), idOf(b)];
	return x !== undefined && String(x) === String(y);
}

// ---------------------------------------------------------------- installations

export const ACTIVE = 1;
export const PAUSED = 0;

const ACTIVE_WORDS = new Set(['active', 'started', 'running', 'enabled', 'on', 'play', 'true']);
const PAUSED_WORDS = new Set([
	'paused',
	'stopped',
	'inactive',
	'disabled',
	'off',
	'pause',
	'false',
]);

/**
 * Status as 1 or 0 whatever the service sent (1, "1", "active", true…); undefined when absent or
 * unknown.
 */
export function statusOf(installation: IDataObject | undefined): number | undefined {
	const status = installation?.status;
	if (status === undefined || status === null || status === '') return undefined;
	if (typeof status === 'boolean') return status ? ACTIVE : PAUSED;
	if (typeof status === 'string') {
		const word = status.trim().toLowerCase();
		if (ACTIVE_WORDS.has(word)) return ACTIVE;
		if (PAUSED_WORDS.has(word)) return PAUSED;
	}
	const value = Number(status);
	return Number.isFinite(value) ? value : undefined;
}

/**
 * The solution an installation belongs to: `solutionId`, or the documented `appId`; undefined when
 * neither is sent.
 */
export function solutionIdOf(installation: IDataObject): number | string | undefined {
	return idOf(installation.solutionId) ?? idOf(installation.appId);
}

/** A copy of `raw` with the given id fields as numbers when they are numeric (`"101"` → 101). */
export function withNumericIds(raw: IDataObject, keys: string[] = ['id']): IDataObject {
	const out: IDataObject = { ...raw };
	for (const key of keys) {
		const id = idOf(raw[key]);
		if (id !== undefined) out[key] = id;
	}
	return out;
}

/**
 * The installation in an answer: the object itself (bare or from the envelope) or wrapped as
 * `{ installation }`; its id, appId, solutionId and status as numbers, other fields as sent.
 */
export function installationOf(data: unknown): IDataObject {
	const raw =
		isObject(data) && isObject(data.installation) && data.id === undefined
			? data.installation
			: data;
	if (!isObject(raw)) return { result: data as IDataObject[] };
	const out = withNumericIds(raw, ['id', 'appId', 'solutionId']);
	const status = statusOf(raw);
	if (status !== undefined) out.status = status;
	return out;
}

/** Keys an installation list may be wrapped in, besides the common list keys (see holdsList). */
export const INSTALLATION_LIST_KEYS = ['installations'];

/**
 * Installations of a list answer (bare, wrapped, or keyed by id), each read as `installationOf`
 * reads one.
 */
export function installationsOf(data: unknown): IDataObject[] {
	return listOrMap(data, INSTALLATION_LIST_KEYS).map(installationOf);
}

// ---------------------------------------------------------------- bundle data

export interface FieldEntry {
	/** The field code, the key of PUT /bundle/data's `data`. */
	name: string;
	/** The display name; the code when the service sends none. */
	label: string;
	value: unknown;
}

/**
 * A step's fields: `[{name,label,value}]` (documented) or a `{code: value}` map (no labels: the
 * code stands in).
 */
export function fieldsOf(raw: unknown): FieldEntry[] {
	if (Array.isArray(raw)) {
		return raw.filter(isObject).map((field) => {
			const name = String(field.name ?? field.code ?? field.key ?? field.id ?? '');
			return { name, label: String(field.label ?? field.title ?? name), value: field.value };
		});
	}
	if (!isObject(raw)) return [];
	return Object.entries(raw).map(([name, value]) =>
		isObject(value) && 'value' in value
			? { name, label: String(value.label ?? value.title ?? name), value: value.value }
			: { name, label: name, value },
	);
}

/**
 * Bundle step data records (list, wrapped, or keyed by step id), with ids as numbers and `data` as
 * a list of fields.
 */
export function bundleRecordsOf(data: unknown): IDataObject[] {
	return listOrMap(data).map((record) => ({
		...withNumericIds(record, ['id', 'bundleId']),
		data: fieldsOf(record.data ?? record.fields) as unknown as IDataObject[],
	}));
}
