/**
 * The connection to the partner's own system (Albato's Embedded API pages), end-user token:
 *   POST     /wl/{partner}/upsert-own-credential        {fields: {...}}
 *   POST|GET /wl/{partner}/get-own-credential
 *   GET|POST /wl/{partner}/get-own-credential-metadata  (also the master token as Basic)
 * Answers: {title, ...fields with secrets masked "••" + last 4, webhookUrl}.
 */
import { randomBytes } from 'crypto';

import type { OwnCredentialRecord } from '../connectionTypes';
import { ApiError, type FieldError } from '../errors';
import type { PartnerField } from '../fixtures';
import type { EmulatorState } from '../types';
import { byMethodOnly, type Handler, type HandlerContext, isPlainObject } from './context';

/** The partner's own system's connection fields (both docs examples: userId, accessToken, secretKey, domain). */
export const OWN_CREDENTIAL_FIELDS: PartnerField[] = [
	{ id: 'userId', type: 0, label: 'User ID', required: false },
	// The upsert page's example sends accessToken; the metadata page's example lists secretKey.
	{ id: 'accessToken', type: 3, label: 'Access token', required: false },
	{ id: 'secretKey', type: 3, label: 'Secret key', required: false },
	{
		id: 'domain',
		type: 10,
		label: 'Domain',
		required: false,
		allowedValues: { 'zone1.partner.com': 'East-1', 'zone2.partner.com': 'West-1' },
	},
];

export const OWN_CREDENTIAL_TITLE = 'Default credential';
/** The mask prefix of secret values, as the docs show ("••570f"). */
export const OWN_MASK = '••';

/** "••" plus the last 4 characters (nothing of secrets of 8 characters or fewer). */
export const maskOwn = (secret: string) =>
	`${OWN_MASK}${secret.length > 8 ? secret.slice(-4) : ''}`;

/** The path's {partner} must be the emulator's partner (end users belong to it): else 403. */
function checkPartner(ctx: HandlerContext): void {
	const name = ctx.params?.[0] ?? '';
	if (name !== ctx.partner.settings.name)
		throw new ApiError(403, `This user does not belong to partner "${name}"`);
	const user = [...ctx.state.endUsers.values()].find((u) => u.sub === ctx.user);
	if (user && user.partner !== name)
		throw new ApiError(403, `This user belongs to partner "${user.partner}", not "${name}"`);
}

function render(ctx: HandlerContext, record: OwnCredentialRecord) {
	const secrets = new Set(OWN_CREDENTIAL_FIELDS.filter((f) => f.type === 3).map((f) => f.id));
	const out: Record<string, unknown> = { title: record.title };
	for (const [key, value] of Object.entries(record.values))
		out[key] = secrets.has(key) ? maskOwn(String(value)) : value;
	out.webhookUrl = record.webhookUrl;
	if (ctx.variants.connectionExtraFields) {
		out.id = record.id;
		out.dateUpdated = ctx.state.connections.nowIso();
	}
	return out;
}

/** Adds one own connection for a user (the upsert's create, and the control call that seeds several). */
export function addOwnCredential(
	state: EmulatorState,
	userId: string,
	values: Record<string, string | number>,
	title = OWN_CREDENTIAL_TITLE,
): OwnCredentialRecord {
	const store = state.connections;
	const id = store.nextOwnCredentialId++;
	const record: OwnCredentialRecord = {
		id,
		userId,
		title,
		values: { ...values },
		webhookUrl: `https://h.albato.emulator/wh/${17600 + id}/${randomBytes(4).toString('hex')}/${randomBytes(18).toString('base64url')}/`,
	};
	store.ownCredentials.set(id, record);
	return record;
}

export const ownCredentialsOf = (state: EmulatorState, userId: string) =>
	[...state.connections.ownCredentials.values()].filter((c) => c.userId === userId);

/** Checks {fields: {...}}: known keys only, at least one, values of their type; masked values refused. */
function validateFields(body: Record<string, unknown>): Record<string, string | number> {
	const errors: FieldError[] = [];
	const fields = body.fields;
	if (fields === undefined || fields === null)
		throw new ApiError(400, [
			{ field: 'fields', message: 'is required: an object of the connection fields' },
		]);
	if (!isPlainObject(fields))
		throw new ApiError(400, [
			{ field: 'fields', message: 'must be an object (key → value), not a list or a scalar' },
		]);
	if (Object.keys(fields).length === 0)
		throw new ApiError(400, [{ field: 'fields', message: 'must name at least one field' }]);
	const values: Record<string, string | number> = {};
	for (const [key, value] of Object.entries(fields)) {
		const field = `fields.${key}`;
		const f = OWN_CREDENTIAL_FIELDS.find((x) => x.id === key);
		if (!f) {
			errors.push({
				field,
				message: `unknown field; known: ${OWN_CREDENTIAL_FIELDS.map((x) => x.id).join(', ')}`,
			});
			continue;
		}
		const problem = valueProblem(f, value);
		if (problem) errors.push({ field, message: problem });
		else values[key] = value as string | number;
	}
	if (errors.length) throw new ApiError(400, errors);
	return values;
}

/** What is wrong with one field's value, if anything. */
function valueProblem(f: PartnerField, value: unknown): string | undefined {
	if (value === null || value === undefined || value === '') return 'must not be empty';
	if (f.type === 0)
		return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
			? undefined
			: 'must be a string or a number';
	if (typeof value !== 'string') return 'must be a string';
	if (f.type === 3 && value.startsWith(OWN_MASK))
		return 'is a masked value as this service answers it; send the real secret';
	if (f.allowedValues && !(value in f.allowedValues))
		return `must be one of: ${Object.keys(f.allowedValues).join(', ')}`;
	return undefined;
}

/** POST /wl/{partner}/upsert-own-credential: creates the user's own connection, or updates one of them (a random one when several). */
export const upsertOwnCredential: Handler = (ctx) => {
	checkPartner(ctx);
	const values = validateFields(ctx.body as Record<string, unknown>);
	const existing = ownCredentialsOf(ctx.state, ctx.user);
	if (existing.length === 0)
		return { data: render(ctx, addOwnCredential(ctx.state, ctx.user, values)) };
	const chosen = existing[Math.floor(Math.random() * existing.length)];
	chosen.values = { ...chosen.values, ...values };
	return { data: render(ctx, chosen) };
};

/** POST (or GET) /wl/{partner}/get-own-credential: the user's own connection (the oldest when several); none → 404. */
export const getOwnCredential: Handler = (ctx) => {
	checkPartner(ctx);
	const [first] = ownCredentialsOf(ctx.state, ctx.user);
	if (!first)
		throw new ApiError(
			404,
			`No connection to ${ctx.partner.settings.name} for this user yet: create it with upsert-own-credential`,
		);
	return { data: render(ctx, first) };
};

/**
 * GET|POST /wl/{partner}/get-own-credential-metadata → {fields: [{id, type, label, allowedValues?}]}
 * (no `required`, as the docs show). Both methods by default (the page's "GET|POST"); variant
 * `ownMetadataMethod` allows one, the other answers 405.
 */
export const getOwnCredentialMetadataBy = (method: 'GET' | 'POST'): Handler =>
	byMethodOnly(
		method,
		'get-own-credential-metadata',
		(ctx) => ctx.variants.ownMetadataMethod,
		(ctx) => getOwnCredentialMetadata(ctx),
	);

const getOwnCredentialMetadata: Handler = (ctx) => {
	if (ctx.user.startsWith('partner:')) {
		// Master token (Basic): authenticatePartner already checked the partner name.
	} else checkPartner(ctx);
	return {
		data: {
			fields: OWN_CREDENTIAL_FIELDS.map((f) => ({
				id: f.id,
				type: f.type,
				label: f.label,
				...(f.allowedValues && { allowedValues: { ...f.allowedValues } }),
			})),
		},
	};
};
