/** End-user tokens: HS256 JWTs whose `sub` is the end user. */
import jwt from 'jsonwebtoken';

import { USER_1 } from './fixtures';
import { ApiError } from './errors';
import type { TokenClaims } from './types';

export function signToken(secret: string, claims: TokenClaims = {}): string {
	const now = Math.floor(Date.now() / 1000);
	const exp = claims.exp ?? now + (claims.expiresInSeconds ?? 3600);
	return jwt.sign({ sub: claims.sub ?? USER_1, iat: Math.min(now, exp), exp }, secret, {
		algorithm: 'HS256',
		noTimestamp: true,
	});
}

const unauthorized = (message: string) => new ApiError(401, message);

/**
 * Tokens whose signature was already checked, with their sub and exp: jsonwebtoken's
 * verify costs ~0.4 ms, which alone would cap the emulator near 2,500 requests/s.
 * exp is still checked on every call. Bounded: cleared when full.
 */
const verified = new Map<string, { sub: string; exp?: number }>();
const CACHE_SIZE = 1000;

/** Returns the end user of a request, or throws a 401 with a message saying what is wrong. */
export function authenticate(
	header: string | undefined,
	secret: string,
	permanentTokens?: Map<string, string>,
): string {
	if (!header)
		throw unauthorized('Missing Authorization header: send "Authorization: Bearer <token>"');
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	if (!match) throw unauthorized('Authorization header must be "Bearer <token>"');
	// Permanent tokens of end users created through /wl are opaque, not JWTs.
	const permanent = permanentTokens?.get(match[1]);
	if (permanent) return permanent;
	const key = `${secret}\n${match[1]}`;
	const known = verified.get(key);
	if (known && (known.exp === undefined || known.exp * 1000 > Date.now())) return known.sub;
	let payload: string | jwt.JwtPayload;
	try {
		payload = jwt.verify(match[1], secret, { algorithms: ['HS256'] });
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
	if (verified.size >= CACHE_SIZE) verified.clear();
	verified.set(key, { sub: payload.sub, exp: payload.exp });
	return payload.sub;
}
