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
