import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE, PARTNER_API, PARTNER_CREDENTIAL_TYPE } from '../constants';
import {
	bearerAuthorization,
	namedPrincipalOf,
	principalOf,
	redact,
	redactKeys,
} from '../readers/token';
import { readAccessToken } from './accessToken';
import {
	type ErrorSource,
	networkError,
	networkFailure,
	statusError,
	successData,
} from './answers';
import { type ApiContext, type CallOptions, callOf } from './callOptions';
import {
	AlbatoApiError,
	type ApiMethod,
	CANCELLED_BEFORE_RETRY,
	CANCELLED_BEFORE_SENDING,
	NetworkFailure,
} from './errors';
import { InFlightLimiter, SharedCeiling } from './limiter';
import { INVALID_JSON } from './serviceMessage';
import { type ListOptions, readWholeList } from './pages';
import { authenticationOf } from './partnerCredential';
import { PartnerSession } from './partnerSession';
import { RETRYABLE_STATUS, RetryBudget, retryAfter } from './retry';
import { DEFAULT_TRANSPORT_OPTIONS, type TransportOptions } from './settings';
import { parseBody, queryString } from './wire';
import { previewRefusal } from './preview';

/**
 * One per process (an n8n worker, or main): every client on Items in Flight Auto shares it, so all
 * the executions a worker runs at once keep at most AUTO_CAP (128) requests in flight together, not
 * 128 each (issue 32: 5 batch executions at once made up to 640). A number the user set stays that
 * execution's own.
 */
const autoCeiling = new SharedCeiling();

/**
 * The one place that talks to the service: base URL, Bearer auth (through the credential's
 * `authenticate`), envelope unwrapping, error translation and safe retries.
 * Create one per execution: it reads and checks the credential once, and hands the decrypted
 * credential to every request, so n8n does not load and decrypt it again per call (in n8n that is
 * a database read and a decryption each time; the credential's `authenticate` still applies).
 */
export class AlbatoClient {
	/**
	 * Passed to every httpRequestWithAuthentication call (built once: the hot path allocates nothing
	 * for it).
	 */
	private readonly credentialOptions: IAdditionalCredentialOptions;
	/**
	 * Shared by every request of this client (= of the execution): adapts to 429s. On Auto it also
	 * waits for the process's ceiling.
	 */
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
		this.limiter = InFlightLimiter.forItemsInFlight(options.concurrency, autoCeiling);
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
			client.partner = await PartnerSession.create(ctx, async (id, itemIndex, owed) => {
				try {
					// Changes nothing on the service: retried like a GET (429, 502–504, lost answers).
					return await client.request('POST', client.partner!.path('get-user-session-token'), {
						body: { id },
						itemIndex,
						asPartner: true,
						idempotent: true,
						evenIfCancelled: owed,
					});
				} catch (error) {
					// A lost answer of the token call is not a lost answer of the end user's call (never
					// sent).
					if (error instanceof AlbatoApiError) error.lost = undefined;
					throw error as Error;
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

	/**
	 * Whom this client acts for on an item (base URL + end user, never a token): keys in-process
	 * bookkeeping.
	 */
	principal(itemIndex: number | undefined): string {
		if (this.partner) return this.partner.principal(itemIndex);
		return principalOf(this.baseUrl, this.token);
	}

	/**
	 * Requests this client lets out at once right now (Items in Flight, halved on 429, Auto's slow
	 * start).
	 */
	get window(): number {
		return this.limiter.current;
	}

	/** Request Options → Preview: writing operations say what they would do, and no write is sent. */
	get preview(): boolean {
		return this.options.preview;
	}

	/**
	 * `principal` when a new credential of the same end user gives the same key (a partner's End User
	 * ID, a token that names its subject); undefined for a token known only by its digest.
	 */
	namedPrincipal(itemIndex: number | undefined): string | undefined {
		if (this.partner) return this.partner.principal(itemIndex);
		return namedPrincipalOf(this.baseUrl, this.token);
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
	 * A read the docs give as "GET | POST" (list-plans, get-own-credential-metadata): GET, then the
	 * same as a POST that changes nothing (retried like a read) when the service answers 405.
	 */
	async readByGetOrPost<T = unknown>(path: string, options: CallOptions): Promise<T> {
		try {
			return await this.request<T>('GET', path, options);
		} catch (error) {
			if (!(error instanceof AlbatoApiError) || !error.wrongMethod) throw error as Error;
			return await this.request<T>('POST', path, { ...options, idempotent: true });
		}
	}

	/**
	 * GET of a list, whole: every page, combined (see pages.ts). A read that cannot be completed, or
	 * a 2xx that holds no list, fails. `what` names the list in that error ("installations").
	 */
	async requestList(path: string, options: ListOptions): Promise<unknown> {
		return await readWholeList(
			(method, at, call) => this.exchange(method, at, call),
			this.node,
			path,
			options,
		);
	}

	/**
	 * One call with retries: the answer's headers, its parsed body, and the data inside the envelope.
	 */
	private async exchange(
		method: ApiMethod,
		path: string,
		options: CallOptions,
	): Promise<{ headers: IDataObject; body: unknown; data: unknown }> {
		const url = (this.partner?.baseUrl ?? this.baseUrl) + path + queryString(options);
		const call = callOf(method, path, options);
		// The safety net under every operation: in Preview nothing that may change the service leaves.
		if (this.options.preview && !call.changesNothing) throw previewRefusal(this.node, call);
		// Partner mode: the item's end user and their token (checked and minted before the call).
		const session = options.asPartner || options.asMaster ? undefined : this.partner;
		const userId = session?.endUserId(options.itemIndex);
		let token =
			session && userId !== undefined
				? await session.token(userId, options.itemIndex, undefined, options.evenIfCancelled)
				: undefined;
		// The end-user tokens this call sent (a second after a 401): its errors hide them.
		const sent = token === undefined ? [] : [token];
		const source = this.errorSourceFor(options, sent);
		let refreshed = false;
		const retries = new RetryBudget(call.safe, this.options.maxRetries, this.options.retryBudget);
		for (let attempt = 0; ; attempt++) {
			let response: { statusCode: number; headers: IDataObject; body: unknown };
			const sentAt = Date.now();
			try {
				response = await this.send(method, url, options.body, token, options, attempt);
			} catch (error) {
				// n8n-core rewrites the error's message; the time spent tells a timeout apart reliably.
				const failure =
					error instanceof NetworkFailure
						? error
						: networkFailure(error, Date.now() - sentAt >= this.options.timeout);
				const wait = this.cancelled ? undefined : retries.afterFailure(attempt);
				if (wait !== undefined) {
					await sleep(wait);
					continue;
				}
				throw networkError(source, failure, call, attempt);
			}
			const { statusCode, headers } = response;
			const body = parseBody(response.body);
			if (statusCode >= 200 && statusCode < 300) {
				const data = successData(source, statusCode, body, options.expect, call);
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
				token = await session.token(userId, options.itemIndex, token, options.evenIfCancelled);
				sent.push(token);
				continue;
			}
			if (RETRYABLE_STATUS.has(statusCode)) {
				const wanted = retryAfter(headers['retry-after']);
				const wait = this.cancelled
					? undefined
					: statusCode === 429
						? retries.afterRateLimit(wanted)
						: retries.afterFailure(attempt, wanted);
				if (wait !== undefined) {
					await sleep(wait);
					continue;
				}
			}
			throw statusError(
				source,
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
		token: string | undefined,
		{ asPartner, asMaster, evenIfCancelled }: CallOptions,
		attempt: number,
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
				: asMaster
					? [CREDENTIAL_TYPE, partner.masterBearer(CREDENTIAL_TYPE)]
					: [CREDENTIAL_TYPE, partner.bearer(token ?? '', CREDENTIAL_TYPE)];
		const ticket = await this.limiter.acquire();
		try {
			// A cancelled execution sends nothing more (n8n would abort it anyway), except what is owed;
			// checked once the slot is taken, as the Stop may come while the request waits for one.
			const stopped = this.stopped({ evenIfCancelled }, attempt);
			if (stopped) throw stopped;
			const owed =
				evenIfCancelled && this.cancelled
					? this.owedAuthorization(token, asPartner, asMaster)
					: undefined;
			const response = (
				owed !== undefined
					? // n8n aborts every authenticated request of a cancelled execution: this one is sent
						// plainly, with the header its credential would add.
						await this.ctx.helpers.httpRequest({
							...request,
							headers: { ...request.headers, Authorization: owed },
						})
					: await this.ctx.helpers.httpRequestWithAuthentication.call(
							this.ctx,
							type,
							request,
							credentialOptions,
						)
			) as { statusCode: number; headers: IDataObject; body: unknown };
			if (response.statusCode === 429) this.limiter.rateLimited(ticket);
			else this.limiter.answered();
			return response;
		} finally {
			this.limiter.release();
		}
	}

	/** Whether n8n has cancelled this execution (Stop, a timeout): its abort signal fired. */
	private get cancelled(): boolean {
		const ctx = this.ctx as Partial<Pick<IExecuteFunctions, 'getExecutionCancelSignal'>>;
		return ctx.getExecutionCancelSignal?.()?.aborted === true;
	}

	/**
	 * Why a call is not sent: the execution was cancelled and the call is not owed. Before its first
	 * attempt nothing was applied; before a retry an earlier attempt may have been.
	 */
	private stopped(
		{ evenIfCancelled }: Pick<CallOptions, 'evenIfCancelled'>,
		attempt: number,
	): NetworkFailure | undefined {
		if (!this.cancelled || evenIfCancelled) return undefined;
		// "canceled", as n8n spells it: an execution whose error says so ends as canceled, not failed.
		return attempt === 0
			? new NetworkFailure(
					'the execution was canceled, so it was not sent',
					CANCELLED_BEFORE_SENDING,
					false,
				)
			: new NetworkFailure(
					'the execution was canceled, so it was not sent again',
					CANCELLED_BEFORE_RETRY,
					false,
				);
	}

	/**
	 * The Authorization header an owed call carries when n8n would abort the authenticated request:
	 * the one the credential adds (the partner's master token as its credential sends it, or an
	 * end-user token as Bearer).
	 */
	private owedAuthorization(
		minted: string | undefined,
		asPartner: boolean | undefined,
		asMaster: boolean | undefined,
	): string | undefined {
		const partner = this.partner;
		if (!partner) return bearerAuthorization(this.token);
		if (asPartner) return partner.masterAuthorization();
		// Nothing owed is sent with the master token as Bearer (update-user-data).
		if (asMaster || minted === undefined) return undefined;
		return bearerAuthorization(minted);
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

	/**
	 * The error source of one call: also hides the end-user tokens it sent, its own secrets and its
	 * secret answer keys.
	 */
	private errorSourceFor(
		{ secrets = [], secretKeys = [] }: CallOptions,
		sent: readonly string[],
	): ErrorSource {
		const source = this.errorSource;
		return {
			...source,
			redact: (text) =>
				redactKeys(
					[...sent, ...secrets].reduce((out, secret) => redact(out, secret), source.redact(text)),
					secretKeys,
				),
		};
	}

	/**
	 * Removes the access token, and in partner mode the master token (and the tokens the session
	 * hides); each call adds the end-user tokens it sent (errorSourceFor).
	 */
	private redact(text: string): string {
		return [this.token, ...(this.partner?.secrets() ?? [])].reduce(
			(out, secret) => redact(out, secret),
			text,
		);
	}
}

/** Only for tests: what they check directly. The node never reads this. */
export const forTests = { autoCeiling };
