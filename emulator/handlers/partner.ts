/**
 * The partner endpoints (outside the spec; from Albato's public docs):
 *   POST /wl/{partner-name}/add-user                {id, timezoneOffset?, language?}
 *   POST /wl/{partner-name}/get-user-session-token  {id} or {email}
 * authorised by the partner's master token, as `Basic <token>` or `Basic base64(token:)`.
 * Users created here are end users like the fixtures' users: their tokens see only their own installations.
 */
import { randomBytes } from 'crypto';

import { basicUsername, signToken, strictRefusal } from '../auth';
import { ApiError } from '../errors';
import type { EndUserRecord, PartnerSettings, StrictAuth } from '../types';
import { isPlainObject, nowIso, type Handler, type HandlerContext } from './context';

/** Checks the master token and the partner name; returns the request log's user (`partner:<name>`). */
export function authenticatePartner(
	header: string | undefined,
	settings: PartnerSettings,
	partnerName: string,
	strict?: StrictAuth,
): string {
	const unauthorized = (message: string) =>
		new ApiError(401, message, { 'WWW-Authenticate': 'Basic realm="partner"' });
	if (!header)
		throw unauthorized('Missing Authorization header: send "Authorization: Basic <master token>"');
	const match = /^Basic\s+(\S+)\s*$/i.exec(header);
	if (!match) throw unauthorized('Authorization header must be "Basic <master token>"');
	const raw = match[1] === settings.masterToken;
	const usernamePassword = match[1] === basicUsername(settings.masterToken);
	const accepted =
		(raw && settings.acceptStyles !== 'usernamePassword') ||
		(usernamePassword && settings.acceptStyles !== 'raw');
	if (!accepted) {
		const wrongStyle = raw || usernamePassword;
		throw unauthorized(
			wrongStyle
				? `This partner accepts the master token only as ${settings.acceptStyles === 'raw' ? '"Basic <token>"' : '"Basic base64(<token>:)"'}`
				: 'Invalid master token',
		);
	}
	const refusal = strictRefusal(strict, raw ? 'raw' : 'username', false);
	if (refusal) throw unauthorized(refusal);
	if (partnerName !== settings.name)
		throw new ApiError(403, `The master token is not valid for partner "${partnerName}"`);
	return `partner:${partnerName}`;
}

const key = (partner: string, id: string) => `${partner}\n${id}`;

/** The token fields of a response under the current `partnerTokens` variant. */
function tokens(ctx: HandlerContext, user: EndUserRecord): Record<string, unknown> {
	// Minted on the emulator's clock, as the service's own: a bench that moves it and the workers'
	// clock together gets tokens the workers see as fresh. (Checked on the real clock: moving the
	// clock forward never expires a token a test holds.)
	const exp =
		Math.floor(ctx.state.connections.now() / 1000) + ctx.partner.settings.sessionTokenSeconds;
	const session = () => signToken(ctx.partner.secret, { sub: user.sub, exp });
	switch (ctx.variants.partnerTokens) {
		case 'session':
			return { sessionToken: session(), sessionTokenValidUntil: exp };
		case 'permanent':
			return { permanentToken: user.permanentToken };
		case 'token':
			return { token: session() };
		default:
			return {
				permanentToken: user.permanentToken,
				sessionToken: session(),
				sessionTokenValidUntil: exp,
			};
	}
}

function partnerUserId(body: Record<string, unknown>): string | undefined {
	const id = body.id;
	if (typeof id === 'number' && Number.isFinite(id)) return String(id);
	return typeof id === 'string' && id.trim() !== '' ? id.trim() : undefined;
}

export const addUser: Handler = (ctx) => {
	const body = isPlainObject(ctx.body) ? ctx.body : {};
	const id = partnerUserId(body);
	const errors = [];
	if (id === undefined)
		errors.push({ field: 'id', message: 'id is required (your own id of the user)' });
	if (body.timezoneOffset !== undefined && !Number.isInteger(body.timezoneOffset))
		errors.push({ field: 'timezoneOffset', message: 'must be an integer (minutes)' });
	if (body.language !== undefined && typeof body.language !== 'string')
		errors.push({ field: 'language', message: 'must be a string' });
	if (errors.length) throw new ApiError(400, errors);
	const partner = ctx.partner.settings.name;
	if (ctx.state.endUsers.has(key(partner, id!)))
		throw new ApiError(400, [{ field: 'id', message: `A user with id "${id}" already exists` }]);
	const albatoId = ctx.state.nextIds.endUser++;
	const user: EndUserRecord = {
		albatoId,
		id: id!,
		partner,
		email: `wl-${albatoId}@${partner}.users.emulator`,
		sub: `${partner}:${id}`,
		permanentToken: `perm_${randomBytes(16).toString('hex')}`,
		timezoneOffset: body.timezoneOffset as number | undefined,
		language: body.language as string | undefined,
		dateCreated: nowIso(),
	};
	ctx.state.endUsers.set(key(partner, user.id), user);
	ctx.state.permanentTokens.set(user.permanentToken, user.sub);
	return {
		data: { id: albatoId, email: user.email, planId: 1, trxLimit: 1000, ...tokens(ctx, user) },
	};
};

export const getUserSessionToken: Handler = (ctx) => {
	const body = isPlainObject(ctx.body) ? ctx.body : {};
	const partner = ctx.partner.settings.name;
	const id = partnerUserId(body);
	const email = typeof body.email === 'string' ? body.email.trim() : undefined;
	if (id === undefined && !email)
		throw new ApiError(400, [{ field: 'id', message: 'id (or email) is required' }]);
	const user =
		id !== undefined
			? ctx.state.endUsers.get(key(partner, id))
			: [...ctx.state.endUsers.values()].find(
					(u) => u.partner === partner && u.email.toLowerCase() === email!.toLowerCase(),
				);
	if (!user)
		throw new ApiError(
			404,
			`End user ${id !== undefined ? `with id "${id}"` : `with email "${email}"`} not found`,
		);
	return { data: tokens(ctx, user) };
};
