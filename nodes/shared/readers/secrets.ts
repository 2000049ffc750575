/**
 * The one rule for keys that may carry a credential, in answers read as data (a /wl token answer,
 * a run step's request and response): such keys never reach an output.
 */
import { isObject } from './shapes';

/**
 * `token`, `refreshToken`, `access_token`, `clientSecret`, `password`, `passwd`, `jwt`, `apiKey`,
 * `X-Api-Key`, `Authorization`, `Cookie`…, any case.
 */
const SECRET_KEY = /token|secret|passw(?:or)?d|jwt|api[_-]?key|authorization|cookie/i;
/** When a token expires is no secret (`tokenValidUntil`, `tokenExpiresAt`, `expiresIn`). */
const EXPIRY_KEY = /validuntil$|expires?(?:at|in)?$/i;

const isSecretKey = (key: string): boolean => SECRET_KEY.test(key) && !EXPIRY_KEY.test(key);

/** A copy of `value` without any key that names a secret, at any depth (inside lists too). */
export function withoutSecrets(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withoutSecrets);
	if (!isObject(value)) return value;
	return Object.fromEntries(
		Object.entries(value)
			.filter(([key]) => !isSecretKey(key))
			.map(([key, inner]) => [key, withoutSecrets(inner)]),
	);
}
