/** What the service said, in every body style it uses, and what to do about each status. */
import { isObject, successFlagOf } from '../readers/shapes';

export const INVALID_JSON = Symbol('invalid JSON');

/** A few words on an answer that does not hold what was expected (never its content: it may hold secrets). */
export function describeBody(data: unknown): string {
	if (data === undefined || data === '') return 'an empty body';
	if (data === null) return 'null';
	return Array.isArray(data)
		? 'a list'
		: isObject(data)
			? `an object (keys: ${Object.keys(data).slice(0, 5).join(', ') || 'none'})`
			: `a ${typeof data}`;
}

/** The error text of every body style the service may use: errors list, Yii, {message}, plain text. */
export function serviceMessage(body: unknown): string | undefined {
	if (body === INVALID_JSON || body === undefined || body === null) return undefined;
	if (typeof body === 'string') return body.trim().slice(0, 500) || undefined;
	const fieldErrors = (list: unknown[]) =>
		list
			.map((entry) => {
				// Entries are {field, message} objects or plain strings (`errors: ["text"]`).
				if (typeof entry === 'string') return entry;
				if (!isObject(entry)) return '';
				const text = String(entry.message ?? entry.error ?? '');
				return entry.field ? `${String(entry.field)}: ${text}` : text;
			})
			.filter(Boolean)
			.join('; ');
	if (Array.isArray(body)) return fieldErrors(body) || undefined;
	if (!isObject(body)) return undefined;
	for (const key of ['errors', 'message', 'data']) {
		const value = body[key];
		if (Array.isArray(value) && fieldErrors(value)) return fieldErrors(value);
		if (typeof value === 'string' && value) return value;
		if (isObject(value) && typeof value.message === 'string') return value.message;
	}
	if (isObject(body.errors)) {
		return Object.entries(body.errors)
			.map(
				([field, text]) =>
					`${field ? `${field}: ` : ''}${Array.isArray(text) ? text.join(', ') : String(text)}`,
			)
			.join('; ');
	}
	if (typeof body.error === 'string') return body.error;
	if (successFlagOf(body) === false) return 'The service reported a failure without a message';
	return undefined;
}

export function hint(status: number, message: string): string {
	if (status === 401)
		return 'Check the Access Token of the Albato Solutions API credential: it may be expired or invalid.';
	if (status === 403) return 'The end user of this token may not do this.';
	if (status === 404) return 'Check the ID: it does not exist or belongs to another end user.';
	if (status === 422 && /pause/i.test(message))
		return 'Pause the installation first, or set "If Installation Is Active" to "Pause, Update, Then Start Again".';
	if (status === 400 || status === 422)
		return 'Check the values sent; the service names the fields it rejected.';
	if (status === 429)
		return 'The service is rate limiting: lower Items in Flight (Request Options) or retry later.';
	if (status >= 500) return 'The service failed; try again later.';
	return 'See the service message above.';
}

/** What to do about a failed call in partner mode, where it differs from the usual hint. */
export function partnerHint(
	/** The Albato Partner API credential's name; undefined outside partner mode. */
	name: string | undefined,
	status: number,
	path: string,
): string | undefined {
	if (name === undefined) return undefined;
	const partnerCall = path.startsWith('/wl/');
	// Which one, when a workflow has several (staging, production): its name, never its data.
	const credential = `the Albato Partner API credential${name ? ` "${name}"` : ''}`;
	if (status === 401) {
		return partnerCall
			? `The service refused the master token. Check Master Token, Partner Name and Send Master Token As in ${credential}.`
			: `The service refused the end user's token even after one fresh token. Check ${credential} and that the end user exists.`;
	}
	if (status === 403 && partnerCall)
		return `The master token is not valid for this Partner Name: check both in ${credential}.`;
	if (status === 404 && path.endsWith('/get-user-session-token'))
		return 'No end user with this End User ID: create it first (End User → Create).';
	if (status === 404 && partnerCall)
		return `No such partner endpoint: check Base URL and Partner Name in ${credential}.`;
	return undefined;
}
