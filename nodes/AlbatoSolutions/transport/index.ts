import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { baseUrlProblem } from '../helpers/baseUrl';
import { nextPageOf } from '../helpers/pagination';
import { holdsList, listOrMap, successFlagOf, unwrapEnvelope } from '../helpers/shapes';
import { principalOf, redact, tokenExpiry } from '../helpers/token';
import { DEFAULT_TRANSPORT_OPTIONS, type TransportOptions } from '../helpers/transportOptions';
import { isObject } from '../helpers/values';
import {
	authenticationOf,
	PARTNER_API,
	PARTNER_CREDENTIAL_TYPE,
	PartnerSession,
} from './endUserTokens';
import { InFlightLimiter } from './inFlightLimiter';

export const CREDENTIAL_TYPE = 'albatoSolutionsApi';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** PLAY and PAUSE are the service's own methods; n8n's type lists only the standard ones. */
export type ApiMethod = IHttpRequestMethods | 'PLAY' | 'PAUSE';

// The defaults live in helpers/ (the Request Options description reads them too); re-exported for callers of the transport.
export { DEFAULT_TRANSPORT_OPTIONS, type TransportOptions } from '../helpers/transportOptions';

export interface RequestOptions {
	/** Query parameters, encoded here. */
	query?: Record<string, string | number>;
	/** A query string sent exactly as given (the service reads some parameters literally, e.g. `+bundles.steps`). */
	rawQuery?: string;
	body?: IDataObject;
	itemIndex?: number;
	/** Partner mode: sent with the master token (the /wl endpoints) instead of as the item's end user. */
	asPartner?: boolean;
	/** A POST that changes nothing (the token call): retried like GET. */
	idempotent?: boolean;
	/**
	 * What a 2xx answer must hold to be used (e.g. a list, an installation). One that does not (an empty
	 * body, `data: null`, another shape) fails as unreadable: it is never taken for "none" or "done".
	 */
	expect?: { what: string; holds: (data: unknown) => boolean };
}

/** One call, as its errors describe it. */
interface Call {
	method: ApiMethod;
	path: string;
	itemIndex: number | undefined;
	/** Safe to send again (GET, PUT, PLAY, PAUSE, and the token call): never "may have applied it, not sent again". */
	safe: boolean;
	/** A read (GET, and the token call): an unreadable answer applied nothing. */
	changesNothing: boolean;
}

/** Failure of a request before the service answered: reset connection, timeout, refused. */
export class NetworkFailure extends Error {
	constructor(
		message: string,
		readonly code: string | undefined,
		/** No answer within the Timeout option: the service may still apply the request. */
		readonly timedOut: boolean,
	) {
		super(message);
	}
}

// Calls that change nothing when repeated: safe to retry. POST (install, create credential) only after a 429, which applied nothing.
const IDEMPOTENT = new Set<ApiMethod>(['GET', 'PUT', 'PLAY', 'PAUSE']);
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
/** Network failures that prove the request never reached the service: nothing can have been applied. */
export const NEVER_SENT = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
]);
/** Said of a call that is not safe to repeat (POST) when its outcome is unknown. */
const MAY_BE_APPLIED =
	'The service may have applied it: it was not sent again (not safe to repeat); check before running this item again.';
const BASE_DELAY = 250;
const MAX_DELAY = 8_000;
/** Pages read for one list at most (Yii's default page size is 20): beyond it the read fails, never ends short. */
export const MAX_PAGES = 200;

/**
 * The one place that talks to the service: base URL, Bearer auth (through the credential's
 * `authenticate`), envelope unwrapping, error translation and safe retries.
 * Create one per execution: it reads and checks the credential once, and hands the decrypted
 * credential to every request, so n8n does not load and decrypt it again per call (in n8n that is
 * a database read and a decryption each time; the credential's `authenticate` still applies).
 */
export class AlbatoClient {
	/** Passed to every httpRequestWithAuthentication call (built once: the hot path allocates nothing for it). */
	private readonly credentialOptions: IAdditionalCredentialOptions;
	/** Shared by every request of this client (= of the execution): adapts to 429s. */
	private readonly limiter: InFlightLimiter;

	/** Set with the Albato Partner API credential: every call acts as the item's End User ID. */
	partner?: PartnerSession;

	private constructor(
		private readonly ctx: ApiContext,
		private readonly baseUrl: string,
		private readonly token: string,
		private readonly options: TransportOptions,
		credentials: ICredentialDataDecryptedObject,
	) {
		const { id, name } = ctx.getNode().credentials?.[CREDENTIAL_TYPE] ?? {};
		this.credentialOptions = {
			credentialsDecrypted: {
				id: id ?? '',
				name: name ?? '',
				type: CREDENTIAL_TYPE,
				data: credentials,
			},
		};
		this.limiter = new InFlightLimiter(options.concurrency);
	}

	static async create(
		ctx: ApiContext,
		options: Partial<TransportOptions> = {},
	): Promise<AlbatoClient> {
		if (authenticationOf(ctx) === PARTNER_API) {
			const client: AlbatoClient = new AlbatoClient(
				ctx,
				'',
				'',
				{ ...DEFAULT_TRANSPORT_OPTIONS, ...options },
				{},
			);
			client.partner = await PartnerSession.create(ctx, async (id, itemIndex) => {
				try {
					// Changes nothing on the service: retried like a GET (429, 502–504, lost answers).
					return await client.request('POST', client.partner!.path('get-user-session-token'), {
						body: { id },
						itemIndex,
						asPartner: true,
						idempotent: true,
					});
				} catch (error) {
					// A lost answer of the token call is not a lost answer of the end user's call (never sent).
					delete (error as { networkFailure?: unknown }).networkFailure;
					// The transport's errors are NodeApiErrors already: this returns the same error.
					throw new NodeApiError(ctx.getNode(), error as JsonObject);
				}
			});
			return client;
		}
		const credentials = await ctx.getCredentials<{ baseUrl?: string; accessToken?: string }>(
			CREDENTIAL_TYPE,
		);
		const baseUrl = String(credentials.baseUrl ?? '')
			.trim()
			.replace(/\/+$/, '');
		const token = String(credentials.accessToken ?? '').trim();
		const problem = baseUrlProblem(baseUrl);
		if (problem) {
			throw new NodeOperationError(ctx.getNode(), `The credential's Base URL ${problem}`, {
				description:
					'Set Base URL in the Albato Solutions API credential, e.g. https://api.albato.com',
			});
		}
		if (!token) {
			throw new NodeOperationError(ctx.getNode(), 'The credential has no Access Token', {
				description: "Paste the end user's token into the Albato Solutions API credential",
			});
		}
		const expiry = tokenExpiry(token);
		if (expiry && expiry.getTime() <= Date.now()) {
			throw new NodeOperationError(
				ctx.getNode(),
				`The access token expired at ${expiry.toISOString()}`,
				{ description: 'Get a new end-user token and update the Albato Solutions API credential' },
			);
		}
		return new AlbatoClient(
			ctx,
			baseUrl,
			token,
			{ ...DEFAULT_TRANSPORT_OPTIONS, ...options },
			credentials as ICredentialDataDecryptedObject,
		);
	}

	/** Whom this client acts for on an item (base URL + end user, never a token): keys in-process bookkeeping. */
	principal(itemIndex: number | undefined): string {
		if (this.partner) return this.partner.principal(itemIndex);
		return principalOf(this.baseUrl, this.token);
	}

	/** The node this client works for, for errors raised outside the transport. */
	get node() {
		return this.ctx.getNode();
	}

	async request<T = unknown>(
		method: ApiMethod,
		path: string,
		options: RequestOptions = {},
	): Promise<T> {
		return (await this.exchange(method, path, options)).data as T;
	}

	/**
	 * GET of a list, whole. One request; when its answer signals more pages (see helpers/pagination),
	 * the next ones too, combined into one list (items met again are left out, by id). Without a
	 * signal the answer is returned as it came. A read that cannot be completed fails: a list cut
	 * short would make installations look removed, or new ones look old. So does a 2xx that holds no
	 * list (an empty body, `data: null`, an object without a list): read as "none", it would make the
	 * trigger report every installation removed, or Get Many answer nothing without a word.
	 * `what` names the list in that error ("installations").
	 */
	async requestList(
		path: string,
		options: RequestOptions & { what: string; listKeys?: string[] },
	): Promise<unknown> {
		// Every page must hold a list, or the read fails as unreadable.
		const expect = {
			what: `list of ${options.what}`,
			holds: (data: unknown) => holdsList(data, options.listKeys),
		};
		const read = { ...options, expect };
		const first = await this.exchange('GET', path, read);
		let next = nextPageOf(first.headers, first.body, 1);
		if (!next) return first.data;
		const items = listOrMap(first.data, options.listKeys);
		const seen = new Set(items.map(itemKey));
		for (let page = 2; next; page++) {
			if (page > MAX_PAGES) {
				throw this.listError(
					`The list has more than ${MAX_PAGES} pages`,
					path,
					options.itemIndex,
					'The node stops there rather than loop; nothing was changed.',
				);
			}
			const answer = await this.exchange('GET', path, {
				...read,
				query: { ...next, ...options.query },
			});
			const fresh = listOrMap(answer.data, options.listKeys).filter(
				(item) => !seen.has(itemKey(item)),
			);
			next = nextPageOf(answer.headers, answer.body, page);
			if (fresh.length === 0 && next) {
				// The same items again while more pages are promised: the service ignores the page asked for.
				throw this.listError(
					`Page ${page} of the list repeats what was already read`,
					path,
					options.itemIndex,
					'The service seems to ignore the page parameter, so the whole list cannot be read. Nothing was changed; report this with the output of `npm run probe`.',
				);
			}
			for (const item of fresh) {
				seen.add(itemKey(item));
				items.push(item);
			}
		}
		return items;
	}

	private listError(
		message: string,
		path: string,
		itemIndex: number | undefined,
		more: string,
	): NodeApiError {
		return new NodeApiError(this.ctx.getNode(), { message } as JsonObject, {
			message,
			description: `GET ${path}: ${more}`,
			itemIndex,
		});
	}

	/** One call with retries: the answer's headers, its parsed body, and the data inside the envelope. */
	private async exchange(
		method: ApiMethod,
		path: string,
		options: RequestOptions,
	): Promise<{ headers: IDataObject; body: unknown; data: unknown }> {
		const url = (this.partner?.baseUrl ?? this.baseUrl) + path + queryString(options);
		const retryable = IDEMPOTENT.has(method) || options.idempotent === true;
		const call: Call = {
			method,
			path,
			itemIndex: options.itemIndex,
			safe: retryable,
			changesNothing: method === 'GET' || options.idempotent === true,
		};
		// Partner mode: the item's end user and their token (checked and minted before the call).
		const session = options.asPartner ? undefined : this.partner;
		const userId = session?.endUserId(options.itemIndex);
		let token =
			session && userId !== undefined ? await session.token(userId, options.itemIndex) : undefined;
		let refreshed = false;
		// Time spent waiting between attempts (not in the limiter's queue); 429s do not count as
		// failures: the limiter lowers the requests in flight, and the budget alone bounds the waiting.
		let waited = 0;
		let rateLimited = 0;
		for (let attempt = 0; ; attempt++) {
			const delay = (wanted: number | undefined, is429 = false) => {
				// A 429 refused the call before applying it: safe to send again for every method, POST included.
				if (is429 ? false : !retryable || attempt - rateLimited >= this.options.maxRetries)
					return undefined;
				// A repeated 429 also backs off (at least the jittered curve): Retry-After: 0 cannot spin.
				const wait = is429
					? Math.max(wanted ?? 0, backoff(rateLimited))
					: (wanted ?? backoff(attempt - rateLimited));
				if (waited + wait > this.options.retryBudget) return undefined;
				waited += wait;
				return wait;
			};
			let response: { statusCode: number; headers: IDataObject; body: unknown };
			const sentAt = Date.now();
			try {
				response = await this.send(method, url, options.body, token, options.asPartner);
			} catch (error) {
				// n8n-core rewrites the error's message; the time spent tells a timeout apart reliably.
				const failure = networkFailure(error, Date.now() - sentAt >= this.options.timeout);
				const wait = delay(undefined);
				if (wait !== undefined) {
					await sleep(wait);
					continue;
				}
				throw this.networkError(failure, call, attempt);
			}
			const { statusCode, headers } = response;
			const body = parseBody(response.body);
			if (statusCode >= 200 && statusCode < 300) {
				if (body === INVALID_JSON) {
					throw this.unreadableError(
						statusCode,
						'The service answered with a body that is not valid JSON',
						call,
					);
				}
				if (successFlagOf(body) === false) {
					throw this.apiError(statusCode, body, call);
				}
				const data = unwrapEnvelope(body);
				if (options.expect && !options.expect.holds(data)) {
					const message = `The service's ${options.expect.what} could not be read: it answered ${describeBody(data)}`;
					throw this.unreadableError(statusCode, message, call);
				}
				return { headers: headers ?? {}, body, data };
			}
			// A minted token refused: nothing was applied, so one fresh token and one more try is safe.
			if (
				statusCode === 401 &&
				session &&
				userId !== undefined &&
				token !== undefined &&
				!refreshed
			) {
				refreshed = true;
				token = await session.token(userId, options.itemIndex, token);
				continue;
			}
			if (RETRYABLE_STATUS.has(statusCode)) {
				const wait = delay(retryAfter(headers['retry-after']), statusCode === 429);
				if (statusCode === 429) rateLimited++;
				if (wait !== undefined) {
					await sleep(wait);
					continue;
				}
			}
			throw this.apiError(statusCode, body === INVALID_JSON ? response.body : body, call, attempt);
		}
	}

	private async send(
		method: ApiMethod,
		url: string,
		body: IDataObject | undefined,
		token?: string,
		asPartner?: boolean,
	) {
		const request: IHttpRequestOptions = {
			method: method as IHttpRequestMethods,
			url,
			headers: { Accept: 'application/json' },
			// Raw text: we parse it ourselves, so a malformed body is reported, not silently passed on.
			encoding: 'text',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: this.options.timeout,
		};
		if (body !== undefined) {
			request.body = body;
			request.headers = { ...request.headers, 'Content-Type': 'application/json' };
		}
		const partner = this.partner;
		const [type, credentialOptions] = !partner
			? [CREDENTIAL_TYPE, this.credentialOptions]
			: asPartner
				? [PARTNER_CREDENTIAL_TYPE, partner.credentialOptions]
				: [CREDENTIAL_TYPE, partner.bearer(token ?? '', CREDENTIAL_TYPE)];
		const ticket = await this.limiter.acquire();
		try {
			const response = (await this.ctx.helpers.httpRequestWithAuthentication.call(
				this.ctx,
				type,
				request,
				credentialOptions,
			)) as { statusCode: number; headers: IDataObject; body: unknown };
			if (response.statusCode === 429) this.limiter.rateLimited(ticket);
			else this.limiter.answered();
			return response;
		} finally {
			this.limiter.release();
		}
	}

	/** A 2xx whose body cannot be used: probably applied; Installation → Create looks for what it made. */
	private unreadableError(status: number, message: string, call: Call): NodeApiError {
		const error = this.apiError(status, message, call, 0, true);
		(error as NodeApiError & { unreadable?: boolean }).unreadable = true;
		return error;
	}

	private apiError(
		status: number,
		body: unknown,
		{ method, path, itemIndex, safe, changesNothing }: Call,
		retries = 0,
		/** A 2xx whose body cannot be read: probably applied. */
		unreadable = false,
	): NodeApiError {
		// Redacted before serviceMessage cuts a text body short: a cut could split the token.
		const text = typeof body === 'string' ? this.redact(body) : body;
		const message = this.redact(serviceMessage(text) ?? `The service answered ${status}`);
		const retried = retries > 0 ? ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})` : '';
		return new NodeApiError(
			this.ctx.getNode(),
			{ message, httpCode: String(status) } as JsonObject,
			{
				message,
				description: `${method} ${path} → ${status}${retried}. ${
					!safe && (status >= 500 || unreadable)
						? MAY_BE_APPLIED
						: unreadable
							? changesNothing
								? 'This call changes nothing; try again later.'
								: `The service may have applied it; ${method} is safe to send again: run this item again.`
							: (this.partner?.hint(status, path) ?? hint(status, message))
				}`,
				httpCode: String(status),
				itemIndex,
			},
		);
	}

	private networkError(
		failure: NetworkFailure,
		{ method, path, itemIndex, safe }: Call,
		retries: number,
	): NodeApiError {
		const message = failure.timedOut
			? `The service did not answer within ${this.options.timeout} ms`
			: `The request failed before the service answered: ${this.redact(failure.message)}`;
		const retried = retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
		const error = new NodeApiError(
			this.ctx.getNode(),
			{ message, code: failure.code ?? null } as JsonObject,
			{
				message,
				description: `${method} ${path}${retried}. ${
					!safe && !NEVER_SENT.has(failure.code ?? '')
						? MAY_BE_APPLIED
						: failure.timedOut
							? 'Raise the Timeout option if the service is slow, or try again later.'
							: `Check the Base URL of the credential and that the service is reachable.`
				}`,
				itemIndex,
			},
		);
		// Lets Installation → Create tell "no answer" apart from "refused" and look for what it created.
		(error as NodeApiError & { networkFailure?: NetworkFailure }).networkFailure = failure;
		return error;
	}

	/** Removes the access token, and in partner mode the master token and every minted token. */
	private redact(text: string): string {
		return [this.token, ...(this.partner?.secrets() ?? [])].reduce(
			(out, secret) => redact(out, secret),
			text,
		);
	}
}

/** The network failure behind an error: the request may have been applied although no answer arrived. */
export function lostResponse(error: unknown): NetworkFailure | undefined {
	const failure = (error as { networkFailure?: unknown } | undefined)?.networkFailure;
	return failure instanceof NetworkFailure ? failure : undefined;
}

/** What identifies a list item across pages: its id, else the whole item. */
const itemKey = (item: IDataObject) =>
	item.id !== undefined && item.id !== null ? `id:${String(item.id)}` : JSON.stringify(item);

/** Encodes one URL path segment (ids come from users and expressions). */
export function segment(value: string | number): string {
	return encodeURIComponent(String(value));
}

function queryString({ query, rawQuery }: RequestOptions): string {
	const parts = Object.entries(query ?? {}).map(
		([key, value]) =>
			`${encodeURIComponent(key).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(String(value))}`,
	);
	if (rawQuery) parts.push(rawQuery);
	return parts.length ? `?${parts.join('&')}` : '';
}

const INVALID_JSON = Symbol('invalid JSON');

function parseBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	if (body.trim() === '') return undefined;
	try {
		return JSON.parse(body);
	} catch {
		return INVALID_JSON;
	}
}

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

function hint(status: number, message: string): string {
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

function networkFailure(error: unknown, tookTimeout: boolean): NetworkFailure {
	const { message, code, cause } = (error ?? {}) as {
		message?: string;
		code?: string;
		cause?: { code?: string };
	};
	const errorCode = code ?? cause?.code;
	const timedOut = tookTimeout || errorCode === 'ETIMEDOUT' || /timeout/i.test(String(message));
	return new NetworkFailure(String(message ?? 'unknown network error'), errorCode, timedOut);
}

/** Full jitter on an exponential curve (the AWS SDKs' choice): spreads retries of concurrent items. */
function backoff(attempt: number): number {
	return Math.round(Math.random() * Math.min(MAX_DELAY, BASE_DELAY * 2 ** attempt));
}

/** `Retry-After` in seconds or as an HTTP date. */
function retryAfter(header: unknown): number | undefined {
	if (header === undefined || header === null || header === '') return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(String(header));
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
