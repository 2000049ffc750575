/**
 * Pure rules for end-user tokens minted with the partner's master token (`/wl/{partner}/…`).
 * Albato's pages disagree on the response, so every variant is read here, in one place.
 */
import { fnv1a, tokenExpiry } from './token';
import { withoutSecrets } from './secrets';
import { isObject } from './shapes';

export interface MintedToken {
	token: string;
	/**
	 * Epoch ms after which the service no longer accepts it; undefined = not said (keep for one
	 * execution).
	 */
	expiresAt?: number;
}

/**
 * The token to act as the end user, from `data` of add-user or get-user-session-token:
 * `sessionToken` (+ `sessionTokenValidUntil`), else `token`, else `permanentToken`.
 * The session token is the documented end-user JWT, so it wins when both are sent.
 */
export function tokenFromResponse(data: unknown): MintedToken | undefined {
	if (!isObject(data)) return undefined;
	const text = (value: unknown) =>
		typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
	const session = text(data.sessionToken);
	const token = session ?? text(data.token) ?? text(data.accessToken) ?? text(data.permanentToken);
	if (!token) return undefined;
	const said = session ? validUntil(data.sessionTokenValidUntil) : undefined;
	// Not said, or said as a time already past for a token just handed out (a lifetime in seconds
	// such as 3600, a clock far off): a JWT still tells its own expiry; a permanent token has none.
	const believed = said !== undefined && said > Date.now() ? said : undefined;
	return { token, expiresAt: believed ?? tokenExpiry(token)?.getTime() };
}

/**
 * `sessionTokenValidUntil` as epoch ms: unix seconds (documented), milliseconds, or a date string.
 */
function validUntil(value: unknown): number | undefined {
	const number =
		typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
	if (typeof number === 'number' && Number.isFinite(number) && number > 0) {
		return number > 1e12 ? number : number * 1000;
	}
	if (typeof value === 'string' && value.trim() !== '') {
		const parsed = Date.parse(value);
		return Number.isNaN(parsed) ? undefined : parsed;
	}
	return undefined;
}

/** Refresh this long before expiry: a minute, or half the token's life when that is shorter. */
export function refreshMargin(mintedAt: number, expiresAt: number): number {
	return Math.min(60_000, Math.max(0, (expiresAt - mintedAt) / 2));
}

/**
 * The data of a /wl response without any field that may carry a secret (what outputs show by
 * default): the documented token fields and any other such name; their expiry times stay.
 */
export function withoutTokens(data: unknown): Record<string, unknown> {
	// The token fields (token, sessionToken, permanentToken, accessToken) are secret keys too: one
	// rule, isSecretKey (readers/secrets.ts), at any depth.
	return isObject(data) ? (withoutSecrets(data) as Record<string, unknown>) : {};
}

/**
 * A 64-bit fingerprint (two 32-bit lanes: FNV-1a and a second, independent mix), so cached tokens
 * are keyed by a credential's data without keeping its master token in a key. Not cryptographic:
 * only tells credentials apart.
 */
export function fingerprint(text: string): string {
	let b = 0x01000193 ^ 0x5bd1e995;
	for (let i = 0; i < text.length; i++)
		b = Math.imul(b ^ text.charCodeAt(i), 0x5bd1e995) ^ (b >>> 15);
	return fnv1a(text).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** Only for tests: what they check or reset directly. The node never reads this. */
export const forTests = { validUntil };
