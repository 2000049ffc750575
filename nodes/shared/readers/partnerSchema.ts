import type { IDataObject } from 'n8n-workflow';

import { isObject, listOrMap } from './shapes';

/** Field types seen in the service's docs. */
const FIELD_TYPE = { string: 0, secret: 3, choice: 10 } as const;

export interface PartnerField {
	id: string;
	label: string;
	type: number;
	required: boolean;
	secret: boolean;
	/** value → label, for choices */
	allowedValues?: Record<string, string>;
}

/** Type words a service may send instead of the codes. */
const TYPE_WORDS: Record<string, number> = {
	string: FIELD_TYPE.string,
	text: FIELD_TYPE.string,
	password: FIELD_TYPE.secret,
	secret: FIELD_TYPE.secret,
	select: FIELD_TYPE.choice,
	choice: FIELD_TYPE.choice,
	enum: FIELD_TYPE.choice,
	list: FIELD_TYPE.choice,
};

/** A field's type code: the number as sent, a word read as its code, otherwise text. */
function fieldTypeOf(raw: unknown): number {
	const code = Number(raw ?? FIELD_TYPE.string);
	if (Number.isFinite(code)) return code;
	return TYPE_WORDS[String(raw).trim().toLowerCase()] ?? FIELD_TYPE.string;
}

/**
 * The fields' list: `{ fields: [...] }`, a bare list, or either under `credentials` (the wiki calls
 * the fields "the same as the Credentials section" of an integration's metadata).
 */
function fieldsIn(data: unknown): unknown {
	if (!isObject(data)) return data;
	if (data.fields !== undefined) return data.fields;
	const credentials = data.credentials;
	if (Array.isArray(credentials)) return credentials;
	if (isObject(credentials) && credentials.fields !== undefined) return credentials.fields;
	return data;
}

/**
 * `{ fields: [...] }` or a bare list (or either under `credentials`); ids under `id`, `name` or
 * `code`; types as codes or words; `allowedValues` as a map or a list.
 */
export function normalizeSchema(data: unknown): PartnerField[] {
	// Fields as a list (documented) or keyed by field id.
	const list = listOrMap(fieldsIn(data));
	return list.filter(isObject).map((field) => {
		const type = fieldTypeOf(field.type);
		const id = String(field.id ?? field.name ?? field.code ?? '');
		return {
			id,
			label: String(field.label ?? field.title ?? id),
			type,
			required: field.required === true || field.required === 1 || field.required === '1',
			secret: type === FIELD_TYPE.secret || field.secret === true || field.password === true,
			allowedValues: allowedValues(field.allowedValues ?? field.values ?? field.options),
		};
	});
}

function allowedValues(raw: unknown): Record<string, string> | undefined {
	if (Array.isArray(raw)) {
		return Object.fromEntries(
			raw.map((entry: unknown) =>
				isObject(entry)
					? [
							String(entry.value ?? entry.id),
							String(entry.label ?? entry.title ?? entry.value ?? entry.id),
						]
					: [String(entry), String(entry)],
			),
		);
	}
	if (isObject(raw))
		return Object.fromEntries(Object.entries(raw).map(([value, label]) => [value, String(label)]));
	return undefined;
}

/** Problems with a set of values for a partner, one sentence each; empty when they are fine. */
export function checkValues(schema: PartnerField[], values: IDataObject): string[] {
	const problems: string[] = [];
	const known = new Set(schema.map((field) => field.id));
	for (const field of schema) {
		const value = values[field.id];
		const empty = value === undefined || value === null || value === '';
		if (empty) {
			if (field.required) problems.push(`"${field.id}" (${field.label}) is required`);
			continue;
		}
		if (field.allowedValues && !(String(value) in field.allowedValues)) {
			problems.push(
				`"${field.id}" (${field.label}) must be one of ${Object.keys(field.allowedValues)
					.map((v) => `"${v}"`)
					.join(', ')}`,
			);
		}
	}
	for (const key of Object.keys(values)) {
		if (!known.has(key))
			problems.push(
				`"${key}" is not a field of this partner (its fields: ${[...known].join(', ')})`,
			);
	}
	return problems;
}

/** Replaces secret values anywhere in a response with a mask, so no output carries them. */
export function maskSecrets(value: unknown, secretKeys: Set<string>): unknown {
	if (Array.isArray(value)) return value.map((entry) => maskSecrets(entry, secretKeys));
	if (!isObject(value)) return value;
	return Object.fromEntries(
		Object.entries(value).map(([key, inner]) => [
			key,
			secretKeys.has(key) && (typeof inner === 'string' || typeof inner === 'number')
				? '[hidden]'
				: maskSecrets(inner, secretKeys),
		]),
	);
}
