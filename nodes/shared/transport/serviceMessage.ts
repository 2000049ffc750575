/** What the service said, in every body style it uses, and what to do about each status. */
import { isObject, successFlagOf } from '../readers/shapes';

export const INVALID_JSON = Symbol('invalid JSON');

/**
 * A few words on an answer that does not hold what was expected (never its content: it may hold
 * secrets).
 */
export function describeBody(data: unknown): string {
	if (data === undefined || data === '') return 'an empty body';
	if (data === null) return 'null';
	return Array.isArray(data)
		? 'a list'
		: isObject(data)
			? `an object (keys: ${Object.keys(data).slice(0, 5).join(', ') || 'none'})`
			: `a ${typeof data}`;
}

/**
 * A proxy's or gateway's HTML error page (nginx, Cloudflare) said in its title, not its markup;
 * undefined when the text is not an HTML page.
 */
function htmlPageMessage(text: string): string | undefined {
	if (!/^<(!doctype\s+html|html)[\s>]/i.test(text)) return undefined;
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim();
	return title ? `an HTML page: "${title.slice(0, 200)}"` : 'an HTML page without a title';
}

/** The messages of an errors list: `{field, message}` objects or plain strings (`errors: ["text"]`). */
function fieldErrors(list: unknown[]): string {
	return list
		.map((entry) => {
			if (typeof entry === 'string') return entry;
			if (!isObject(entry)) return '';
			const messages = Array.isArray(entry.messages) ? entry.messages.join(', ') : undefined;
			const text = String(entry.message ?? messages ?? entry.error ?? '');
			return entry.field ? `${String(entry.field)}: ${text}` : text;
		})
		.filter(Boolean)
		.join('; ');
}

/** What one key of an error body says: a list of errors, a text, or an object's message. */
function said(value: unknown): string | undefined {
	if (Array.isArray(value)) return fieldErrors(value) || undefined;
	if (typeof value === 'string') return value || undefined;
	return isObject(value) && typeof value.message === 'string' ? value.message : undefined;
}

/** The first of these keys that says something. */
function firstSaid(body: Record<string, unknown>, keys: string[]): string | undefined {
	for (const key of keys) {
		const text = said(body[key]);
		if (text !== undefined) return text;
	}
	return undefined;
}

/**
 * The error text of every body style the service may use: errors list, Yii, {message},
 * {error: {message}}, {detail}, plain text, a gateway's HTML page.
 */
export function serviceMessage(body: unknown): string | undefined {
	if (body === INVALID_JSON || body === undefined || body === null) return undefined;
	if (typeof body === 'string') {
		const text = body.trim();
		return htmlPageMessage(text) ?? (text.slice(0, 500) || undefined);
	}
	if (Array.isArray(body)) return fieldErrors(body) || undefined;
	if (!isObject(body)) return undefined;
	const text = firstSaid(body, ['errors', 'message', 'data']);
	if (text !== undefined) return text;
	if (isObject(body.errors)) {
		return Object.entries(body.errors)
			.map(
				([field, text]) =>
					`${field ? `${field}: ` : ''}${Array.isArray(text) ? text.join(', ') : String(text)}`,
			)
			.join('; ');
	}
	// Last: `error` and `detail` are often only the status's name beside a more precise message.
	const named = firstSaid(body, ['error', 'detail']);
	if (named !== undefined) return named;
	if (successFlagOf(body) === false) return 'The service reported a failure without a message';
	return undefined;
}

/**
 * A refusal that says the installation must be paused first ("pause it first", "installation is
 * active"): the one rule for both the hint and AlbatoApiError's `needsPause`. The seed shows a 422;
 * the service's status for it is not documented, so a 400 or a 409 (Conflict) saying so counts too.
 */
export function refusedWhileActive(status: number, message: string): boolean {
	if (status === 422) return /paus|active/i.test(message);
	// Not the seed's status: only words that cannot mean something else ("inactive", "already
	// active" do not count).
	return (
		(status === 400 || status === 409) && /paus|\b(is|still|currently) active\b/i.test(message)
	);
}

/** A hint: when it applies (first match wins), and what it says. */
interface Hint {
	when: (status: number, message: string) => boolean;
	hint: string;
}

/** What to do about each status (partner mode's own hints come first: see PARTNER_HINTS). */
const HINTS = [
	{
		when: (status) => status === 401,
		hint: 'Check the Access Token of the Albato Solutions API credential: it may be expired or invalid, or sent in a form the service does not take (Send Token As).',
	},
	{ when: (status) => status === 403, hint: 'The end user of this token may not do this.' },
	{
		when: (status) => status === 404,
		hint: 'Check the ID: it does not exist or belongs to another end user.',
	},
	{
		when: (status, message) => refusedWhileActive(status, message),
		hint: 'Pause the installation first, or set "If Installation Is Active" to "Pause, Update, Then Start Again".',
	},
	{
		when: (status) => status === 400 || status === 422,
		hint: 'Check the values sent; the service names the fields it rejected.',
	},
	{
		when: (status) => status === 429,
		hint: 'The service is rate limiting: lower Items in Flight (Request Options) or retry later.',
	},
	{ when: (status) => status >= 500, hint: 'The service failed; try again later.' },
] as const satisfies readonly Hint[];

export function hint(status: number, message: string): string {
	return (
		HINTS.find((entry) => entry.when(status, message))?.hint ?? 'See the service message above.'
	);
}

/** A failed call in partner mode, as its hints read it (an errors.ts `Call`). */
interface PartnerCall {
	path: string;
	/** Sent with the partner's master token. */
	withMasterToken?: boolean;
	/** About one end user (CallOptions.about). */
	about?: 'endUser';
	/** The form the service took the master token in, when its answer got past the token check. */
	takenAs?: string;
	/** Sent as this end user (the item's End User ID), in partner mode. */
	actingFor?: string;
}

/**
 * A partner-mode hint: the status it is for, the endpoint it is for (the path's last segment) when
 * it is for one, any other condition on the call, and what it says. The first that applies wins.
 */
interface PartnerHint {
	status: number;
	endpoint?: string;
	when?: (call: PartnerCall) => boolean;
	hint: (credential: string, call: PartnerCall) => string;
}

const withMasterToken = (call: PartnerCall) => call.withMasterToken === true;

/** What to do about a failed call in partner mode, where it differs from the usual hint. */
const PARTNER_HINTS = [
	{
		// Albato's page says "Bearer <master account token>"; which token it means is open.
		status: 401,
		endpoint: 'update-user-data',
		hint: () =>
			'The service refused this token for update-user-data: set Options → Authorize As to the other token (Master Token or End User).',
	},
	{
		status: 401,
		when: withMasterToken,
		hint: (credential) =>
			`The service refused the master token. Check Master Token, Partner Name and Send Master Token As in ${credential}.`,
	},
	{
		status: 401,
		hint: (credential) =>
			`The service refused the end user's token even after one fresh token. Check ${credential} (Send End-User Tokens As) and that the end user exists.`,
	},
	{
		status: 403,
		when: withMasterToken,
		hint: (credential) =>
			`The master token is not valid for this Partner Name: check both in ${credential}.`,
	},
	{
		status: 404,
		endpoint: 'get-user-session-token',
		// First that the master token works: in a first hour, the 404 is read as a wrong token.
		hint: (_credential, { takenAs }) =>
			`${takenAs ? `The master token was accepted (as ${takenAs}). ` : ''}No end user with this End User ID: create it first (End User → Create).`,
	},
	{
		status: 404,
		when: ({ about }) => about === 'endUser',
		hint: (credential) =>
			`No end user with this End User ID (End User → Create makes one), or a wrong Partner Name: check the End User ID, then Base URL and Partner Name in ${credential}.`,
	},
	{
		status: 404,
		endpoint: 'get-own-credential',
		hint: () =>
			'This end user has no connection to your system yet: End User → Set Own Connection makes it.',
	},
	{
		// Per item: name the end user this item acted as, since another item's may own the ID.
		status: 404,
		when: ({ path, actingFor }) => actingFor !== undefined && !path.startsWith('/wl/'),
		hint: (_credential, { actingFor }) =>
			`Check the ID: it does not exist or belongs to another end user than "${String(actingFor)}" (this item's End User ID).`,
	},
	{
		status: 404,
		when: ({ path }) => path.startsWith('/wl/'),
		hint: (credential) =>
			`No such partner endpoint: check Base URL and Partner Name in ${credential}.`,
	},
] as const satisfies readonly PartnerHint[];

/** Whether a hint is for this failed call. */
function applies(entry: PartnerHint, status: number, call: PartnerCall): boolean {
	if (entry.status !== status) return false;
	if (entry.endpoint !== undefined && !call.path.endsWith(`/${entry.endpoint}`)) return false;
	return entry.when?.(call) ?? true;
}

/** What to do about a failed call in partner mode, where it differs from the usual hint. */
export function partnerHint(
	/** The Albato Partner API credential's name; undefined outside partner mode. */
	name: string | undefined,
	status: number,
	call: PartnerCall,
): string | undefined {
	if (name === undefined) return undefined;
	// Which one, when a workflow has several (staging, production): its name, never its data.
	const credential = `the Albato Partner API credential${name ? ` "${name}"` : ''}`;
	const entry: PartnerHint | undefined = PARTNER_HINTS.find((hint) => applies(hint, status, call));
	return entry?.hint(credential, call);
}
