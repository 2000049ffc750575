/** Endpoints 11–12: partner credential schema and credential creation. */
import { ApiError, notFound, type FieldError } from '../errors';
import { PARTNERS } from '../fixtures';
import type { CredentialRecord } from '../types';
import { nowIso, type Handler } from './context';

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
	return { data: { partnerId: ctx.id, title: p.title, fields: p.fields.map((f) => ({ ...f, ...(f.allowedValues && { allowedValues: { ...f.allowedValues } }) })) } };
};

/** "****" plus the last 4 characters (nothing of short secrets). */
export const mask = (secret: string) => `****${secret.length > 8 ? secret.slice(-4) : ''}`;

export function renderCredential(c: CredentialRecord) {
	const secrets = new Set(PARTNERS[c.partnerId].fields.filter((f) => f.type === 3).map((f) => f.id));
	const values = Object.fromEntries(Object.entries(c.values).map(([k, v]) => [k, secrets.has(k) ? mask(v) : v]));
	return { id: c.id, partnerId: c.partnerId, title: c.title, values, dateCreated: c.dateCreated };
}

/** POST /credentials/{partnerId} {title, ...partner fields} → 201 with the stored credential, secrets masked. Any problem → 400. */
export const createCredential: Handler = (ctx) => {
	const p = partner(ctx.id);
	const body = ctx.body as Record<string, unknown>;
	const errors: FieldError[] = [];
	const title = body[TITLE_KEY];
	if (typeof title !== 'string' || title.trim() === '') {
		errors.push({ field: TITLE_KEY, message: title === undefined ? 'is required (the connection name)' : 'must be a non-empty string' });
	}
	const values: Record<string, string> = {};
	for (const f of p.fields) {
		const v = body[f.id];
		if (v === undefined || v === null || v === '') {
			if (f.required) errors.push({ field: f.id, message: 'is required' });
		} else if (typeof v !== 'string') errors.push({ field: f.id, message: 'must be a string' });
		else if (f.allowedValues && !(v in f.allowedValues)) errors.push({ field: f.id, message: `must be one of: ${Object.keys(f.allowedValues).join(', ')}` });
		else values[f.id] = v;
	}
	for (const key of Object.keys(body)) {
		if (key !== TITLE_KEY && !p.fields.some((f) => f.id === key)) errors.push({ field: key, message: `unknown field for partner ${ctx.id}` });
	}
	if (errors.length) throw new ApiError(400, errors);
	const record: CredentialRecord = { id: ctx.state.nextIds.credential++, userId: ctx.user, partnerId: ctx.id, title: title as string, values, dateCreated: nowIso() };
	ctx.state.credentials.set(record.id, record);
	return { status: 201, data: renderCredential(record) };
};
