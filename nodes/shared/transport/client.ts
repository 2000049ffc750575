import { PARTNER_API } from '../constants';
import { basicUsername, redact, redactKeys } from '../readers/token';
import { AccessCredential, readAccessToken } from './accessToken';
import type { ErrorSource } from './answers';
import type { ApiContext, CallOptions, SendAs } from './callOptions';
import { AlbatoApiError, type ApiMethod } from './errors';
import { exchange, type Line } from './exchange';
import { InFlightLimiter, SharedCeiling } from './limiter';
import { type ListOptions, readWholeList } from './pages';
import {
	authenticationOf,
	type PartnerCredential,
	readPartnerCredential,
} from './partnerCredential';
import { PartnerSession, type TokenCall } from './partnerSession';
import { Sender } from './sender';
import type { Signer } from './signer';
import type { Trial } from './tokenForms';
import { DEFAULT_TRANSPORT_OPTIONS, type TransportOptions } from './settings';

/** Shared by every client on Items in Flight Auto in this process: see SharedCeiling (limiter.ts). */
const autoCeiling = new SharedCeiling();

/**
 * The one place that talks to the service: base URL, Bearer auth (through the credential's
 * `authenticate`), envelope unwrapping, error translation and safe retries.
 * Create one per execution: it reads and checks the credential once, and hands the decrypted
 * credential to every request, so n8n does not load and decrypt it again per call (in n8n that is
 * a database read and a decryption each time; the credential's `authenticate` still applies).
 */
export class AlbatoClient {
	/** Set with the Albato Partner API credential: every call acts as the item's End User ID. */
	readonly partner: PartnerSession | undefined;

	/** Whom requests are signed as: the Access Token credential, or the partner session. */
	private readonly signer: Signer;

	/**
	 * Shared by every request of this client (= of the execution): adapts to 429s. On Auto it also
	 * waits for the process's ceiling.
	 */
	private readonly limiter: InFlightLimiter;

	/** What each call's exchange needs of this client. */
	private readonly line: Line;

	private constructor(
		private readonly ctx: ApiContext,
		private readonly options: TransportOptions,
		credential: AccessCredential | PartnerCredential,
	) {
		this.partner =
			credential instanceof AccessCredential
				? undefined
				: new PartnerSession(ctx, credential, async (call) => await this.mint(call));
		this.signer = this.partner ?? (credential as AccessCredential);
		this.limiter = InFlightLimiter.forItemsInFlight(options.concurrency, autoCeiling);
		const sender = new Sender(ctx, this.signer, this.limiter, options.timeout);
		this.line = {
			settings: options,
			get node() {
				return ctx.getNode();
			},
			baseUrl: this.signer.baseUrl,
			partner: this.partner,
			sender,
			errorSourceFor: (options, sent) => this.errorSourceFor(options, sent),
			trialFor: async (sendAs, token) => await this.trialFor(sendAs, token),
		};
	}

	static async create(
		ctx: ApiContext,
		options: Partial<TransportOptions> = {},
	): Promise<AlbatoClient> {
		const settings = { ...DEFAULT_TRANSPORT_OPTIONS, ...options };
		if (authenticationOf(ctx) === PARTNER_API) {
			return new AlbatoClient(ctx, settings, await readPartnerCredential(ctx));
		}
		const { baseUrl, token, credentials } = await readAccessToken(ctx);
		const access = new AccessCredential(ctx.getNode(), baseUrl, token, credentials);
		return new AlbatoClient(ctx, settings, access);
	}

	/**
	 * Whom this client acts for on an item (base URL + end user, never a token): keys in-process
	 * bookkeeping.
	 */
	principal(itemIndex: number | undefined): string {
		return this.signer.principal(itemIndex);
	}

	/**
	 * Requests this client lets out at once right now (Items in Flight, halved on 429, Auto's slow
	 * start).
	 */
	get window(): number {
		return this.limiter.current;
	}

	/**
	 * `principal` when a new credential of the same end user gives the same key (a partner's End User
	 * ID, a token that names its subject); undefined for a token known only by its digest.
	 */
	namedPrincipal(itemIndex: number | undefined): string | undefined {
		return this.signer.namedPrincipal(itemIndex);
	}

	/**
	 * How each token this client sends goes now (Auto's finding, or the form chosen), named; in
	 * partner mode for the item's end user. Never a token.
	 */
	tokenForms(itemIndex: number): Record<string, string> {
		return this.signer.tokenForms(itemIndex);
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
		return (await exchange(this.line, method, path, options)).data as T;
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
			return await this.request<T>('POST', path, { ...options, effect: 'read' });
		}
	}

	/**
	 * GET of a list, whole: every page, combined (see pages.ts). A read that cannot be completed, or
	 * a 2xx that holds no list, fails. `what` names the list in that error ("installations").
	 */
	async requestList(path: string, options: ListOptions): Promise<unknown> {
		return await readWholeList(
			async (method, at, call) => await exchange(this.line, method, at, call),
			this.node,
			path,
			options,
		);
	}

	/** The end user's token call (partner mode). Changes nothing: retried like a GET. */
	private async mint({ path, endUserId, itemIndex, owed }: TokenCall): Promise<unknown> {
		try {
			return await this.request('POST', path, {
				body: { id: endUserId },
				itemIndex,
				sendAs: 'partner',
				effect: 'read',
				about: 'endUser',
				owed,
			});
		} catch (error) {
			// The end user's call it was for was never sent: no answer of that call was lost.
			throw error instanceof AlbatoApiError ? error.withoutLostAnswer() : (error as Error);
		}
	}

	/** How a call puts its token in the header: the form learnt, or those to try (tokenForms.ts). */
	private async trialFor(sendAs: SendAs, token: string | undefined): Promise<Trial> {
		return await this.signer.trial(sendAs, token);
	}

	/**
	 * The error source of one call: it hides the client's secrets (the access token; in partner mode
	 * the master token and the tokens the session hides), the end-user tokens the call sent, its own
	 * secrets and its secret answer keys.
	 */
	private errorSourceFor(
		{ secrets = [], secretKeys = [] }: CallOptions,
		sent: readonly string[],
	): ErrorSource {
		const own = () => this.signer.secrets();
		// Each token also as Basic sends it (base64 of "<token>:"): an echoed header must not show it.
		const hidden = () =>
			[...own(), ...sent, ...secrets].flatMap((secret) => [secret, basicUsername(secret)]);
		return {
			node: this.ctx.getNode(),
			redact: (text) =>
				redactKeys(
					hidden().reduce((out, secret) => redact(out, secret), text),
					secretKeys,
				),
			timeout: this.options.timeout,
			partnerCredential: this.partner?.credentialName,
		};
	}
}

/** Only for tests: what they check directly. The node never reads this. */
export const forTests = { autoCeiling };
