import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE, PARTNER_API, PARTNER_CREDENTIAL_TYPE } from '../constants';
import { successFlagOf, unwrapEnvelope } from '../readers/shapes';
import { principalOf, redact } from '../readers/token';
import { readAccessToken } from './accessToken';
import {
	AlbatoApiError,
	type ApiMethod,
	type Call,
	type ErrorSource,
	networkError,
	networkFailure,
	statusError,
	passOn,
} from './errors';
import { InFlightLimiter } from './limiter';
import { describeBody, INVALID_JSON } from './serviceMessage';
import { type ListOptions, readWholeList } from './pages';
import { authenticationOf, PartnerSession } from './partnerSession';
import { RetryBudget, retryAfter } from './retry';
import { DEFAULT_TRANSPORT_OPTIONS, type TransportOptions } from './settings';
import { parseBody, queryString } from './wire';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** One call's options (not the UI's Request Options: those are the client's TransportOptions). */
export interface CallOptions {
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

// Calls that change nothing when repeated: safe to retry. POST (install, create credential) only after a 429, which applied nothing.
const IDEMPOTENT = new Set<ApiMethod>(['GET', 'PUT', 'PLAY', 'PAUSE']);
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

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
		this.limiter = InFlightLimiter.forItemsInFlight(options.concurrency);
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
					if (error instanceof AlbatoApiError) error.lost = undefined;
					throw passOn(error);
				}
			});
			return client;
		}
		const { baseUrl, token, credentials } = await readAccessToken(ctx);
		return new AlbatoClient(
			ctx,
			baseUrl,
			token,
			{ ...DEFAULT_TRANSPORT_OPTIONS, ...options },
			credentials,
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
		options: CallOptions = {},
	): Promise<T> {
		return (await this.exchange(method, path, options)).data as T;
	}

	/**
	 * GET of a list, whole: every page, combined (see pages.ts). A read that cannot be completed, or a
	 * 2xx that holds no list, fails. `what` names the list in that error ("installations").
	 */
	async requestList(path: string, options: ListOptions): Promise<unknown> {
		return await readWholeList(
			(method, at, call) => this.exchange(method, at, call),
			this.node,
			path,
			options,
		);
	}

	/** One call with retries: the answer's headers, its parsed body, and the data inside the envelope. */
	private async exchange(
		method: ApiMethod,
		path: string,
		options: CallOptions,
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
		const retries = new RetryBudget(retryable, this.options.maxRetries, this.options.retryBudget);
		for (let attempt = 0; ; attempt++) {
			let response: { statusCode: number; headers: IDataObject; body: unknown };
			const sentAt = Date.now();
			try {
				response = await this.send(method, url, options.body, token, options.asPartner);
			} catch (error) {
				// n8n-core rewrites the error's message; the time spent tells a timeout apart reliably.
				const failure = networkFailure(error, Date.now() - sentAt >= this.options.timeout);
				const wait = retries.afterFailure(attempt);
				if (wait !== undefined) {
					await sleep(wait);
					continue;
				}
				throw networkError(this.errorSource, failure, call, attempt);
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
					throw statusError(this.errorSource, statusCode, body, call);
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
				const wanted = retryAfter(headers['retry-after']);
				const wait =
					statusCode === 429
						? retries.afterRateLimit(wanted)
						: retries.afterFailure(attempt, wanted);
				if (wait !== undefined) {
					await sleep(wait);
					continue;
				}
			}
			throw statusError(
				this.errorSource,
				statusCode,
				body === INVALID_JSON ? response.body : body,
				call,
				attempt,
			);
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
	private unreadableError(status: number, message: string, call: Call): AlbatoApiError {
		return statusError(this.errorSource, status, message, call, 0, true);
	}

	/** What the errors of this client need to know of it. */
	private get errorSource(): ErrorSource {
		return {
			node: this.ctx.getNode(),
			redact: (text) => this.redact(text),
			timeout: this.options.timeout,
			partnerCredential: this.partner?.credentialName,
		};
	}

	/** Removes the access token, and in partner mode the master token and every minted token. */
	private redact(text: string): string {
		return [this.token, ...(this.partner?.secrets() ?? [])].reduce(
			(out, secret) => redact(out, secret),
			text,
		);
	}
}
