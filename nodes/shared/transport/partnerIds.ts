/**
 * The partner's ids as given in a parameter or the credential, checked before any request: End User
 * ID (checkedEndUserId in endUserId.ts says what to do about a bad one) and Partner Name. Pure.
 */

/**
 * The partner's own id of an end user: text or a number, at most 255 characters, no control
 * characters. Returns the error to show, or the id.
 */
export function checkEndUserId(value: unknown): { id: string } | { problem: string } {
	if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
	if (typeof value !== 'string')
		return { problem: `must be text or a number, got ${value === null ? 'null' : typeof value}` };
	const id = value.trim();
	if (id === '') return { problem: 'is empty' };
	if (id.length > 255)
		return { problem: `is ${id.length} characters long; at most 255 are allowed` };
	if ([...id].some((char) => char.charCodeAt(0) < 32 || char.charCodeAt(0) === 127))
		return { problem: 'contains control characters (e.g. a line break)' };
	return { id };
}

/**
 * The {partner-name} path segment: letters, digits and `-_.~` only (as it appears in Albato's
 * URLs), and not only dots: `.` and `..` are path steps (`/wl/../add-user` is `/add-user`).
 */
export function checkPartnerName(value: unknown): string | undefined {
	const name = typeof value === 'string' ? value.trim() : '';
	return /^[A-Za-z0-9._~-]{1,100}$/.test(name) && !/^\.+$/.test(name) ? name : undefined;
}
