/** Reads the `exp` claim of a JWT without verifying it: only to fail early and clearly on an expired token. */
export function tokenExpiry(token: string): Date | undefined {
	const payload = token.split('.')[1];
	if (!payload) return undefined;
	try {
		const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
			exp?: unknown;
		};
		return typeof claims.exp === 'number' ? new Date(claims.exp * 1000) : undefined;
	} catch {
		return undefined;
	}
}

/** Fragments of a token this long or longer are recognised wherever they appear. */
const FRAGMENT = 16;
const TOKEN_CHARS = /[A-Za-z0-9_\-.+/=]+/g;

/**
 * Replaces every recognisable part of the secret in a text, so no message or log can carry it: the
 * whole secret, and any run of 16 or more of its characters (a JWT's header, payload or signature
 * segment, or a piece the service cut off). Call it before cutting a text short: a cut can split
 * the secret so that the whole no longer matches.
 */
export function redact(text: string, secret: string | undefined): string {
	if (!secret || secret.length < 8) return text;
	const whole = text.split(secret).join('[redacted]');
	if (secret.length < FRAGMENT) return whole;
	const windows = new Set<string>();
	for (let i = 0; i + FRAGMENT <= secret.length; i++) windows.add(secret.slice(i, i + FRAGMENT));
	return whole.replace(TOKEN_CHARS, (run) => {
		if (run.length < FRAGMENT) return run;
		// Mark each character covered by a window of the secret, then redact the marked stretches.
		const covered = new Array<boolean>(run.length).fill(false);
		for (let i = 0; i + FRAGMENT <= run.length; i++) {
			if (windows.has(run.slice(i, i + FRAGMENT))) covered.fill(true, i, i + FRAGMENT);
		}
		let out = '';
		for (let i = 0; i < run.length; i++) {
			if (!covered[i]) out += run[i];
			else if (i === 0 || !covered[i - 1]) out += '[redacted]';
		}
		return out;
	});
}

/**
 * Whom a token acts for, as a key for in-process bookkeeping: the base URL and the JWT's `sub`, or
 * a digest of the token when it has none. Never the token itself.
 */
export function principalOf(baseUrl: string, token: string): string {
	const named = namedPrincipalOf(baseUrl, token);
	if (named !== undefined) return named;
	// FNV-1a, 32 bits: a collision only serialises two users' installs of the same title.
	let hash = 0x811c9dc5;
	for (let i = 0; i < token.length; i++)
		hash = Math.imul(hash ^ token.charCodeAt(i), 0x01000193) >>> 0;
	return `${baseUrl} token:${hash.toString(16)}`;
}

/**
 * `principalOf` when the token names whom it acts for (a JWT with a `sub`), so a new token of the
 * same user gives the same key; undefined for a token without a subject (known only by a digest).
 */
export function namedPrincipalOf(baseUrl: string, token: string): string | undefined {
	const payload = token.split('.')[1];
	if (!payload) return undefined;
	try {
		const { sub } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
			sub?: unknown;
		};
		if ((typeof sub === 'string' && sub !== '') || typeof sub === 'number')
			return `${baseUrl} sub:${String(sub)}`;
	} catch {
		// not a JWT: no subject
	}
	return undefined;
}

/**
 * Hides the values of secret answer keys in a text, also in a body cut short or shown as a link:
 * `"token": "…"` and `token=…` (e.g. a connection link's token).
 */
export function redactKeys(text: string, keys: string[]): string {
	return keys.reduce((out, key) => {
		const name = key.replace(/[^A-Za-z0-9_]/g, '');
		if (!name) return out;
		return out
			.replace(new RegExp(`("${name}"\\s*:\\s*)"[^"]*"?`, 'g'), '$1"[redacted]"')
			.replace(new RegExp(`([?&]${name}=)[^&\\s"']+`, 'g'), '$1[redacted]');
	}, text);
}
