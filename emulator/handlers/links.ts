/**
 * Connection by link (outside the spec, from Albato's docs; refreshed user data: updateUserData.ts):
 *   POST   /credentials/grant-access-sharing        {partnerId, title}   end-user token
 *   GET    /credentials/grant-access-sharing/{id}                        end-user token
 *   PUT    /credentials/grant-access-sharing/{id}   (renew; PATCH too)   end-user token
 *   DELETE /credentials/grant-access-sharing/{id}                        end-user token
 * A link is completed into a credential by the control call (completeLink); the solutions'
 * credentialists then offer that credential (offerConnections).
 */
import { randomBytes } from 'crypto';

import type { CompleteLinkOptions, LinkRecord } from '../connectionTypes';
import { ApiError, notFound, type FieldError } from '../errors';
import { PARTNERS, type StepFixture } from '../fixtures';
import { recordsOf } from '../indexedMap';
import type { CredentialRecord, EmulatorState, Variants } from '../types';
import { isPlainObject, type Handler, type HandlerContext } from './context';
import { renderCredential } from './credentials';

/** The link the customer opens (Albato's format). */
export const linkUrl = (link: { id: number; token: string }) =>
	`https://connect.integrations-hub.com?id=${link.id}&token=${link.token}`;

/** 0 waiting, 1 connected (credentialId set), 2 expired (only with the `linkExpiredStatus: 'expired'` variant). */
export function linkStatus(state: EmulatorState, link: LinkRecord, variants: Variants): number {
	if (link.credentialId !== null) return 1;
	if (state.connections.isExpired(link) && variants.linkExpiredStatus === 'expired') return 2;
	return 0;
}

const LINK_WORDS = ['waiting', 'connected', 'expired'];
export const UPDATE_WORDS = ['new', 'queued', 'updating', 'updated', 'requeued'];

/** A numeric status as `statusShape` renders it: 1, "1", or a word. */
export function shaped(status: number, words: string[], variants: Variants): number | string {
	if (variants.statusShape === 'string') return String(status);
	if (variants.statusShape === 'word') return words[status] ?? String(status);
	return status;
}

function renderLink(ctx: HandlerContext, link: LinkRecord) {
	const store = ctx.state.connections;
	const out: Record<string, unknown> = {
		id: link.id,
		partnerId: link.partnerId,
		token: link.token,
		status: shaped(linkStatus(ctx.state, link, ctx.variants), LINK_WORDS, ctx.variants),
		credentialId: link.credentialId,
		title: link.title,
		dateCreated:
			ctx.variants.linkDateCreated === 'null'
				? null
				: new Date(link.createdAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
	};
	if (ctx.variants.connectionExtraFields) {
		out.userId = 70000 + link.id;
		out.dateUpdated = store.nowIso();
		out.sharingType = 'link';
	}
	return out;
}

function ownLink(ctx: HandlerContext): LinkRecord {
	const link = ctx.state.connections.links.get(ctx.id);
	if (!link || link.userId !== ctx.user) throw notFound(`Sharing ${ctx.id}`);
	return link;
}

function checkTitle(title: unknown, errors: FieldError[], required: boolean): void {
	if (title === undefined || title === null) {
		if (required) errors.push({ field: 'title', message: 'is required (the connection name)' });
	} else if (typeof title !== 'string')
		errors.push({ field: 'title', message: 'must be a string' });
	else if (title.trim() === '') errors.push({ field: 'title', message: 'must not be empty' });
	else if (title.length > 255)
		errors.push({ field: 'title', message: 'must be at most 255 characters' });
}

/** POST /credentials/grant-access-sharing {partnerId, title} → 201 the sharing (status 0, credentialId null). Unknown keys are ignored. */
export const createLink: Handler = (ctx) => {
	const body = ctx.body as Record<string, unknown>;
	const errors: FieldError[] = [];
	const { partnerId, title } = body;
	if (partnerId === undefined || partnerId === null)
		errors.push({ field: 'partnerId', message: 'is required (the app to connect)' });
	else if (typeof partnerId !== 'number' || !Number.isInteger(partnerId) || partnerId <= 0)
		errors.push({ field: 'partnerId', message: 'must be a positive integer' });
	else if (!PARTNERS[partnerId])
		errors.push({ field: 'partnerId', message: `unknown partner (app) ${partnerId}` });
	checkTitle(title, errors, true);
	if (errors.length) throw new ApiError(400, errors);
	const link = ctx.state.connections.createLink(ctx.user, partnerId as number, title as string);
	return { status: 201, data: renderLink(ctx, link) };
};

/** GET /credentials/grant-access-sharing/{id}: status 0 waiting / 1 connected (with credentialId); no token with `linkReadToken: 'hidden'`. */
export const getLink: Handler = (ctx) => {
	const out = renderLink(ctx, ownLink(ctx));
	if (ctx.variants.linkReadToken === 'hidden') delete out.token;
	return { data: out };
};

/** PUT (or PATCH) /credentials/grant-access-sharing/{id} [{title}]: a new token and 48 h from now (the answer: `linkRenewAnswer`). A used link → 422. */
export const renewLink: Handler = (ctx) => {
	const link = ownLink(ctx);
	const body = isPlainObject(ctx.body) ? ctx.body : {};
	const errors: FieldError[] = [];
	checkTitle(body.title, errors, false);
	if (errors.length) throw new ApiError(400, errors);
	if (link.credentialId !== null)
		throw new ApiError(422, [
			{
				field: null,
				message: `Sharing ${link.id} was already used (credential ${link.credentialId}): create a new one`,
			},
		]);
	ctx.state.connections.renewLink(link);
	if (typeof body.title === 'string') link.title = body.title;
	const answer = ctx.variants.linkRenewAnswer;
	if (answer === 'noContent') return { status: 204, data: null };
	if (answer === 'id') return { data: { id: link.id } };
	if (answer === 'emptyList') return { data: [] };
	return { data: renderLink(ctx, link) };
};

/** DELETE /credentials/grant-access-sharing/{id} → 200 {id} (or 204 with `linkDeleteAnswer: 'noContent'`). The credential it made stays. */
export const deleteLink: Handler = (ctx) => {
	const link = ownLink(ctx);
	ctx.state.connections.links.delete(link.id);
	if (ctx.variants.linkDeleteAnswer === 'noContent') return { status: 204, data: null };
	return { data: { id: link.id } };
};

// ------------------------------------------------------------ completion

/** Raised by completeLink: `status` 404 (unknown or deleted) or 409 (expired, already used). */
export class LinkCompletionError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

function generatedValues(partnerId: number): Record<string, string> {
	const values: Record<string, string> = {};
	for (const f of PARTNERS[partnerId].fields) {
		if (f.type === 3) values[f.id] = randomBytes(16).toString('hex');
		else if (f.allowedValues) values[f.id] = Object.keys(f.allowedValues)[0];
		else values[f.id] = `linked-${f.id}`;
	}
	return values;
}

/** As if the customer opened the link and connected: a credential of the link's user and partner. Works once, before expiry. */
export function completeLink(
	state: EmulatorState,
	id: number,
	options: CompleteLinkOptions = {},
): CredentialRecord {
	const store = state.connections;
	const link = store.links.get(id);
	if (!link)
		throw new LinkCompletionError(404, `Sharing ${id} not found (never created, or deleted)`);
	if (link.credentialId !== null)
		throw new LinkCompletionError(
			409,
			`Sharing ${id} was already used (credential ${link.credentialId}): a link works once`,
		);
	if (store.isExpired(link))
		throw new LinkCompletionError(
			409,
			`Sharing ${id} expired at ${new Date(store.expiresAt(link)).toISOString()} (48 h after creation): renew it first`,
		);
	const fields = PARTNERS[link.partnerId].fields;
	const values = { ...generatedValues(link.partnerId), ...(options.values ?? {}) };
	for (const key of Object.keys(values))
		if (!fields.some((f) => f.id === key))
			throw new LinkCompletionError(400, `unknown field "${key}" for partner ${link.partnerId}`);
	const record: CredentialRecord = {
		id: state.nextIds.credential++,
		userId: link.userId,
		partnerId: link.partnerId,
		title: options.title ?? link.title,
		values,
		dateCreated: store.nowIso(),
	};
	state.credentials.set(record.id, record);
	link.credentialId = record.id;
	return record;
}

export { renderCredential };

// ------------------------------------------------ credentialists offer connections

/**
 * The solution's steps with the user's connections offered: each step tied to a partner
 * (`partnerId` in the fixtures) also offers every credential of that partner owned by the user
 * (made by link or by Credential → Create), as `{value: "<credentialId>", title: <its title>}`.
 */
export function offerConnections(
	steps: StepFixture[],
	state: EmulatorState,
	user: string,
): StepFixture[] {
	const own = recordsOf(state.credentials, user);
	if (own.length === 0) return steps;
	const walk = (level: StepFixture[]): StepFixture[] =>
		level.map((step) => ({
			...step,
			values: [
				...step.values.map((v) => (v.nested ? { ...v, nested: walk(v.nested) } : v)),
				...(step.partnerId === undefined
					? []
					: own
							.filter((c) => c.partnerId === step.partnerId)
							.map((c) => ({ value: String(c.id), title: c.title }))),
			],
		}));
	return walk(steps);
}
