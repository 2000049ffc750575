/** The claims of a JWT, read without verifying it; undefined when the token is not one. */
function claimsOf(token: string): Record<string, unknown> | undefined {
	const payload = token.split('.')[1];
	if (!payload) return undefined;
	try {
		const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
		return typeof claims === 'object' && claims !== null
			? (claims as Record<string, unknown>)
			: undefined;
	} catch {
		return undefined;
	}
}

/** The `exp` claim of a JWT, not verified: only to fail early and clearly on an expired token. */
export function tokenExpiry(token: string): Date | undefined {
	const exp = claimsOf(token)?.exp;
	return typeof exp === 'number' ? new Date(exp * 1000) : undefined;
}

/** FNV-1a, 32 bits, as an unsigned number: tells texts apart, not cryptographic. */
export function fnv1a(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
	return hash >>> 0;
}

/** A token as an HTTP Basic username with an empty password: base64 of "<token>:". */
export function basicUsername(token: string): string {
	return Buffer.from(`${token}:`, 'utf8').toString('base64');
}

/**
 * The ways a token can be put in the Authorization header: `Bearer <token>`, HTTP Basic with the
 * token as the username and an empty password (`Basic base64("<token>:")`, the form Albato's pages
 * give for a permanent token), or `Basic <token>` (the placeholder of the partner quick start).
 */
export type TokenForm = 'bearer' | 'basicUsername' | 'basicRaw';

/** What each form is called in messages (never with the token). */
export const FORM_NAMES: Record<TokenForm, string> = {
	bearer: 'Bearer',
	basicUsername: 'Basic username (token + empty password)',
	basicRaw: 'Basic token (Basic <token>)',
};

/** Whether a token is shaped like a JWT: three dot-separated parts whose second is a JSON object. */
export function looksLikeJwt(token: string): boolean {
	return token.trim().split('.').length === 3 && claimsOf(token.trim()) !== undefined;
}

/**
 * The credential properties that choose a form, as this release writes them: `headerForm` for the
 * credential's own token (Send Token As, Send Master Token As) and `endUserHeaderForm` for the end
 * users' tokens (Send End-User Tokens As); values `auto` or a TokenForm. Beside each, the names a
 * credential saved by an earlier release may hold it under: still read, never written. (No name
 * says "token": n8n's community lint takes such a field for a secret.)
 */
export const FORM_PROPERTIES = {
	headerForm: ['basicAuthStyle'],
	endUserHeaderForm: [],
} as const satisfies Record<string, readonly string[]>;

export type FormProperty = keyof typeof FORM_PROPERTIES;

/**
 * A credential's choice for one kind of token: the property as this release writes it; on Auto
 * (its default, so what n8n fills in for a credential saved before it existed), the form an
 * earlier release's property chose. A form is chosen (not `auto`) only by the one the user set.
 */
export function formChoice(data: Record<string, unknown> | undefined, property: FormProperty) {
	const choice = data?.[property];
	if (chosenForm(choice)) return choice;
	const earlierNames: readonly string[] = FORM_PROPERTIES[property];
	const earlier = earlierNames.map((name) => data?.[name]).find(chosenForm);
	return earlier ?? choice ?? 'auto';
}

/**
 * A choice as a form: `bearer`, `basicUsername` or `basicRaw`, and the values earlier releases
 * saved for the last two (`usernamePassword`, `raw`: Send Master Token As). Anything else (`auto`)
 * is undefined: the node finds the form.
 */
export function chosenForm(choice: unknown): TokenForm | undefined {
	if (choice === 'raw' || choice === 'basicRaw') return 'basicRaw';
	if (choice === 'usernamePassword' || choice === 'basicUsername') return 'basicUsername';
	if (choice === 'bearer') return 'bearer';
	return undefined;
}

/**
 * The forms to try for a token, in order: the chosen one alone; on Auto, `Bearer` for a JWT, else
 * the documented Basic username first and then `other` (the form the rest of Albato's pages show
 * for this kind of token).
 */
export function formsFor(
	token: string,
	choice: unknown,
	other: 'bearer' | 'basicRaw',
): TokenForm[] {
	const chosen = chosenForm(choice);
	if (chosen) return [chosen];
	if (looksLikeJwt(token)) return ['bearer'];
	return ['basicUsername', other];
}

/** The Authorization header of a token in one form. */
export function authorizationIn(token: string, form: TokenForm): string {
	const trimmed = token.trim();
	if (form === 'bearer') return `Bearer ${trimmed}`;
	return form === 'basicRaw' ? `Basic ${trimmed}` : `Basic ${basicUsername(trimmed)}`;
}

/**
 * The Authorization header of an end-user token, as the Access Token credential sends it: its
 * choice, or on Auto the first form Auto tries (the node tries the next on a 401).
 */
export function bearerAuthorization(token: string, choice: unknown = 'bearer'): string {
	return authorizationIn(token, formsFor(token, choice, 'bearer')[0]);
}

/**
 * The Authorization header of the partner's master token, as the Partner API credential sends it
 * (Send Master Token As; on Auto the first form Auto tries).
 */
export function masterAuthorization(masterToken: string, choice: unknown): string {
	return authorizationIn(masterToken, formsFor(masterToken, choice, 'basicRaw')[0]);
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
 * Whom a token acts for, as a key for in-process bookkeeping: the base URL and the user the JWT
 * names, or a digest of the token when it names none. Never the token itself.
 */
export function principalOf(baseUrl: string, token: string): string {
	const named = namedPrincipalOf(baseUrl, token);
	if (named !== undefined) return named;
	// Not a JWT, or no subject: a digest. A collision only serialises two users' installs of one title.
	return `${baseUrl} token:${fnv1a(token).toString(16)}`;
}

/**
 * `principalOf` when the token names whom it acts for, so a new token of the same user gives the
 * same key; undefined for a token without a subject (known only by a digest). The subject is the
 * JWT's `sub`, or `identity` in Albato's session tokens (its wiki's example: `{"identity": 97330,
 * "trueIdentity": …}`).
 */
export function namedPrincipalOf(baseUrl: string, token: string): string | undefined {
	const claims = claimsOf(token);
	for (const subject of [claims?.sub, claims?.identity])
		if ((typeof subject === 'string' && subject !== '') || typeof subject === 'number')
			return `${baseUrl} sub:${String(subject)}`;
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
