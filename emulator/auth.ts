/** End-user tokens: HS256 JWTs whose `sub` is the end user. */
import { createSecretKey, type KeyObject } from 'crypto';
import jwt from 'jsonwebtoken';

import { USER_1 } from './fixtures';
import { ApiError } from './errors';
import type { AuthForm, StrictAuth, TokenClaims } from './types';

/**
 * The secret as a key object, made once: given a string, jsonwebtoken first tries (and fails) to read
 * it as a PEM private or public key on every sign and verify, about 0.6 ms each, a third of the
 * emulator's CPU when a fleet job mints a token per customer.
 */
const secretKeys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
	let key = secretKeys.get(secret);
	if (!key) secretKeys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
	return key;
}

export function signToken(secret: string, claims: TokenClaims = {}): string {
	const now = Math.floor(Date.now() / 1000);
	const exp = claims.exp ?? now + (claims.expiresInSeconds ?? 3600);
	return jwt.sign({ sub: claims.sub ?? USER_1, iat: Math.min(now, exp), exp }, keyOf(secret), {
		algorithm: 'HS256',
		noTimestamp: true,
	});
}

const unauthorized = (message: string) => new ApiError(401, message);

/**
 * Tokens whose signature was already checked, with their sub and exp: jsonwebtoken's
 * verify costs ~0.4 ms, which alone would cap the emulator near 2,500 requests/s.
 * exp is still checked on every call. Bounded above a fleet of 100,000 customers (each job mints a
 * token per customer; about 0.4 KB each): past it the oldest checked goes first.
 */
const verified = new Map<string, { sub: string; exp?: number }>();
const CACHE_SIZE = 200_000;

/** A token as HTTP Basic's username with an empty password: base64 of "<token>:". */
export function basicUsername(token: string): string {
	return Buffer.from(`${token}:`, 'utf8').toString('base64');
}

/**
 * The token of a Basic header and how it was sent: the username of `base64("<token>:")`, or the
 * credentials part itself (`Basic <token>`).
 */
export function basicToken(credentials: string): { token: string; form: 'username' | 'raw' } {
	const decoded = Buffer.from(credentials, 'base64').toString('utf8');
	const username = decoded.endsWith(':') ? decoded.slice(0, -1) : '';
	if (username && basicUsername(username) === credentials)
		return { token: username, form: 'username' };
	return { token: credentials, form: 'raw' };
}

/** How a header carries its token, for the request log (never the token). */
export function authFormOf(header: string | undefined): AuthForm {
	if (!header) return 'none';
	const [scheme, value = ''] = header.trim().split(/\s+/);
	if (/^bearer$/i.test(scheme)) return 'bearer';
	if (!/^basic$/i.test(scheme)) return 'other';
	return basicToken(value).form === 'username' ? 'basicUsername' : 'basicRaw';
}

/** Why a strict reading refuses a form; undefined when it takes it. */
export function strictRefusal(
	strict: StrictAuth | undefined,
	form: 'username' | 'raw' | 'bearer',
	permanent: boolean,
): string | undefined {
	if (strict === 'noRawBasic' && form === 'raw')
		return 'A token is not taken as "Basic <token>": send it as the Basic username, "Basic base64(<token>:)"';
	if (strict === 'noBasicUsername' && form === 'username')
		return 'A token is not taken as "Basic base64(<token>:)" here';
	if (strict === 'noBearerPermanent' && form === 'bearer' && permanent)
		return 'A permanent token is taken only as the Basic username: "Basic base64(<token>:)"';
	return undefined;
}

/**
 * The end-user token of a request and how it was sent: `Bearer <token>`, or (a permanent token or a
 * JWT) HTTP Basic, as its username or raw. `strict` refuses one form (the `strictAuth` variant).
 */
function endUserToken(
	header: string,
	permanentTokens: Map<string, string> | undefined,
	strict: StrictAuth | undefined,
): string {
	const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
	const basic = bearer ? undefined : /^Basic\s+(\S+)\s*$/i.exec(header);
	if (!bearer && !basic) throw unauthorized('Authorization header must be "Bearer <token>"');
	const { token, form } = bearer
		? { token: bearer[1], form: 'bearer' as const }
		: basicToken((basic as RegExpExecArray)[1]);
	// Basic carries a token (a permanent one, or a JWT), not a user and a password.
	if (basic && !permanentTokens?.has(token) && token.split('.').length !== 3)
		throw unauthorized(
			'Authorization header must be "Bearer <token>" (or Basic with the token as the username)',
		);
	const refusal = strictRefusal(strict, form, permanentTokens?.has(token) === true);
	if (refusal) throw unauthorized(refusal);
	return token;
}

/** Returns the end user of a request, or throws a 401 with a message saying what is wrong. */
export function authenticate(
	header: string | undefined,
	secret: string,
	permanentTokens?: Map<string, string>,
	strict?: StrictAuth,
): string {
	if (!header)
		throw unauthorized('Missing Authorization header: send "Authorization: Bearer <token>"');
	const token = endUserToken(header, permanentTokens, strict);
	// Permanent tokens of end users created through /wl are opaque, not JWTs.
	const permanent = permanentTokens?.get(token);
	if (permanent) return permanent;
	const key = `${secret}\n${token}`;
	const known = verified.get(key);
	if (known && (known.exp === undefined || known.exp * 1000 > Date.now())) return known.sub;
	let payload: string | jwt.JwtPayload;
	try {
		payload = jwt.verify(token, keyOf(secret), { algorithms: ['HS256'] });
	} catch (err) {
		if (err instanceof jwt.TokenExpiredError)
			throw unauthorized(`Token expired at ${err.expiredAt.toISOString()}`);
		if (err instanceof jwt.JsonWebTokenError) {
			if (err.message === 'invalid signature') throw unauthorized('Invalid token signature');
			if (err.message === 'invalid algorithm')
				throw unauthorized('Token must be signed with HS256');
			throw unauthorized(`Malformed token: ${err.message}`);
		}
		throw err;
	}
	if (typeof payload === 'string' || typeof payload.sub !== 'string' || payload.sub === '') {
		throw unauthorized('Token has no subject (sub claim)');
	}
	if (verified.size >= CACHE_SIZE) verified.delete(verified.keys().next().value!);
	verified.set(key, { sub: payload.sub, exp: payload.exp });
	return payload.sub;
}
