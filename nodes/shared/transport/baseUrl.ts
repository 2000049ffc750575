/** A credential's Base URL as the calls use it: trimmed, without a trailing slash. */
export function baseUrlOf(raw: unknown): string {
	return String(raw ?? '')
		.trim()
		.replace(/\/+$/, '');
}

/**
 * What is wrong with a credential's Base URL, or undefined when it is usable. Only a plain
 * http(s) address with an optional path is accepted: a query or fragment would be glued in front of
 * every path and break each call, and user-info (`user:password@`) would send a second secret
 * along (and could show in errors); the Access Token is the only credential sent.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	if (!/^https?:\/\/[^/]/i.test(baseUrl)) return 'is not an http(s) address';
	const authority = baseUrl.replace(/^https?:\/\//i, '').split(/[/?#]/, 1)[0];
	if (authority.includes('@'))
		return 'contains a user name or password (the part before "@"): remove it, the Access Token is sent instead';
	if (baseUrl.includes('?'))
		return 'contains a query ("?…"): give only the address, e.g. https://api.albato.com';
	if (baseUrl.includes('#'))
		return 'contains a fragment ("#…"): give only the address, e.g. https://api.albato.com';
	try {
		new URL(baseUrl);
	} catch {
		return 'is not a valid address';
	}
	return undefined;
}
