/** Endpoints 11–12: partner credential schema and credential creation. */
import { ApiError, notFound, type FieldError } from '../errors';
import { PARTNERS, type PartnerField } from '../fixtures';
import type { CredentialRecord, Variants } from '../types';
import { isPlainObject, nowIso, type Handler } from './context';

/** Key of the user-defined connection name in the create body. */
export const TITLE_KEY = 'title';

function partner(id: number) {
	const p = PARTNERS[id];
	if (!p) throw notFound(`Partner ${id}`);
	return p;
}

/** GET /credentials/{partnerId}/meta → {partnerId, title, fields: [{id, type, label, required, allowedValues?}]}. */
export const credentialMeta: Handler = (ctx) => {
	const p = partner(ctx.id);
	const fields = fieldsOf(ctx.id, ctx.variants).map((f) => {
		const out: Record<string, unknown> = {
			...f,
			...(f.allowedValues && { allowedValues: { ...f.allowedValues } }),
		};
		if (!ctx.variants.metaRequired) delete out.required;
		return out;
	});
	return { data: { partnerId: ctx.id, title: p.title, fields } };
};

/** Optional fields of types other than 0/3/10 (Albato's connection fields also know integer, boolean, email). */
export const EXTRA_TYPED_FIELDS: PartnerField[] = [
	{ id: 'port', type: 1, label: 'Port', required: false },
	{ id: 'sandbox', type: 5, label: 'Sandbox', required: false },
	{ id: 'contactEmail', type: 7, label: 'Contact email', required: false },
];

/** The partner's fields under the current variants. */
export function fieldsOf(partnerId: number, variants: Variants): PartnerField[] {
	const fields = partner(partnerId).fields;
	return variants.metaExtraTypes ? [...fields, ...EXTRA_TYPED_FIELDS] : fields;
}

/** "****" plus the last 4 characters (nothing of short secrets). */
export const mask = (secret: string) => `****${secret.length > 8 ? secret.slice(-4) : ''}`;

export function renderCredential(c: CredentialRecord) {
	const secrets = new Set(
		PARTNERS[c.partnerId].fields.filter((f) => f.type === 3).map((f) => f.id),
	);
	const values = Object.fromEntries(
		Object.entries(c.values).map(([k, v]) => [k, secrets.has(k) ? mask(v) : v]),
	);
	return { id: c.id, partnerId: c.partnerId, title: c.title, values, dateCreated: c.dateCreated };
}

/** POST /credentials/{partnerId} {title, ...partner fields} → 201 with the stored credential, secrets masked. Any problem → 400. */
export const createCredential: Handler = (ctx) => {
	partner(ctx.id);
	const fields = fieldsOf(ctx.id, ctx.variants);
	const body = ctx.body as Record<string, unknown>;
	const errors: FieldError[] = [];
	const title = body[TITLE_KEY];
	if (typeof title !== 'string' || title.trim() === '') {
		errors.push({
			field: TITLE_KEY,
			message:
				title === undefined ? 'is required (the connection name)' : 'must be a non-empty string',
		});
	}
	const given = givenFields(body, ctx.variants, errors);
	const values = fieldValues(fields, given, errors);
	errors.push(...unknownKeys(ctx.id, body, given, ctx.variants, fields));
	if (errors.length) throw new ApiError(400, errors);
	const record: CredentialRecord = {
		id: ctx.state.nextIds.credential++,
		userId: ctx.user,
		partnerId: ctx.id,
		title: title as string,
		values,
		dateCreated: nowIso(),
	};
	ctx.state.credentials.set(record.id, record);
	return { status: 201, data: renderCredential(record) };
};

/** The partner's fields as given: flat beside the title, or inside {"fields": {...}} (layout variant). */
function givenFields(
	body: Record<string, unknown>,
	variants: Variants,
	errors: FieldError[],
): Record<string, unknown> {
	if (variants.credentialBody !== 'fields') return body;
	if (!isPlainObject(body.fields))
		errors.push({ field: 'fields', message: "is required: an object with the partner's fields" });
	for (const key of Object.keys(body))
		if (key !== TITLE_KEY && key !== 'fields')
			errors.push({
				field: key,
				message: 'unknown key; the partner\'s fields go inside "fields"',
			});
	return isPlainObject(body.fields) ? body.fields : {};
}

/** The values of the partner's fields, each checked (required, a string, one of the allowed values). */
function fieldValues(
	fields: PartnerField[],
	given: Record<string, unknown>,
	errors: FieldError[],
): Record<string, string> {
	const values: Record<string, string> = {};
	for (const f of fields) {
		const v = given[f.id];
		if (v === undefined || v === null || v === '') {
			if (f.required) errors.push({ field: f.id, message: 'is required' });
		} else if (typeof v !== 'string') errors.push({ field: f.id, message: 'must be a string' });
		else if (f.allowedValues && !(v in f.allowedValues))
			errors.push({
				field: f.id,
				message: `must be one of: ${Object.keys(f.allowedValues).join(', ')}`,
			});
		else values[f.id] = v;
	}
	return values;
}

/** Keys that are none of the partner's fields. */
function unknownKeys(
	partnerId: number,
	body: Record<string, unknown>,
	given: Record<string, unknown>,
	variants: Variants,
	fields: PartnerField[],
): FieldError[] {
	const known = (key: string) => fields.some((f) => f.id === key);
	if (variants.credentialBody === 'flat')
		return Object.keys(body)
			.filter((key) => key !== TITLE_KEY && !known(key))
			.map((key) => ({ field: key, message: `unknown field for partner ${partnerId}` }));
	return Object.keys(given)
		.filter((key) => !known(key))
		.map((key) => ({ field: `fields.${key}`, message: `unknown field for partner ${partnerId}` }));
}
