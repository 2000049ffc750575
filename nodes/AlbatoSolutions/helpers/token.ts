/** Reads the `exp` claim of a JWT without verifying it: only to fail early and clearly on an expired token. */
export function tokenExpiry(token: string): Date | undefined {
	const payload = token.split('.')[1];
	if (!payload) return undefined;
	try {
		const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
		return typeof claims.exp === 'number' ? new Date(claims.exp * 1000) : undefined;
	} catch {
		return undefined;
	}
}

/** Replaces every occurrence of the secret in a text, so no message or log can carry it. */
export function redact(text: string, secret: string | undefined): string {
	if (!secret || secret.length < 8) return text;
	return text.split(secret).join('[redacted]');
}

/**
 * Whom a token acts for, as a key for in-process bookkeeping: the base URL and the JWT's `sub`, or
 * a digest of the token when it has none. Never the token itself.
 */
export function principalOf(baseUrl: string, token: string): string {
	const payload = token.split('.')[1];
	if (payload) {
		try {
			const { sub } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown };
			if ((typeof sub === 'string' && sub !== '') || typeof sub === 'number') return `${baseUrl} sub:${String(sub)}`;
		} catch {
			// not a JWT: fall through to the digest
		}
	}
	// FNV-1a, 32 bits: a collision only serialises two users' installs of the same title.
	let hash = 0x811c9dc5;
	for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 0x01000193) >>> 0;
	return `${baseUrl} token:${hash.toString(16)}`;
}
