/**
 * One attempt of a call on the wire: its HTTP request, signed with the right credential, sent within
 * the limiter's window, and not sent at all once the execution is cancelled (unless it is owed).
 */
import type {
	IAdditionalCredentialOptions,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';

import type { TokenForm } from '../readers/token';
import type { ApiContext, SendAs } from './callOptions';
import {
	type ApiMethod,
	CANCELLED_BEFORE_RETRY,
	CANCELLED_BEFORE_SENDING,
	NetworkFailure,
} from './errors';
import type { InFlightLimiter } from './limiter';
import type { Signer } from './signer';

/** What one attempt sends. */
interface Outgoing {
	method: ApiMethod;
	url: string;
	body: IDataObject | undefined;
	sendAs: SendAs;
	/** The end user's minted token (partner mode, sent as the end user). */
	token: string | undefined;
	/** The form the token goes in on this attempt (see tokenForms.ts). */
	form: TokenForm;
	owed: boolean;
}

interface Response {
	statusCode: number;
	headers?: IDataObject;
	body: unknown;
}

export class Sender {
	constructor(
		private readonly ctx: ApiContext,
		private readonly signer: Signer,
		private readonly limiter: InFlightLimiter,
		private readonly timeout: number,
	) {}

	/** Whether n8n has cancelled this execution (Stop, a timeout): its abort signal fired. */
	get cancelled(): boolean {
		const ctx = this.ctx as Partial<Pick<IExecuteFunctions, 'getExecutionCancelSignal'>>;
		return ctx.getExecutionCancelSignal?.()?.aborted === true;
	}

	/** Sends once, when the limiter lets it; a 429 narrows the window, any other answer widens it. */
	async send(outgoing: Outgoing, attempt: number): Promise<Response> {
		const ticket = await this.limiter.acquire();
		try {
			// A cancelled execution sends nothing more (n8n would abort it anyway), except what is owed;
			// checked once the slot is taken, as the Stop may come while the request waits for one.
			const stopped = this.stopped(outgoing.owed, attempt);
			if (stopped) throw stopped;
			const response = await this.deliver(outgoing);
			if (response.statusCode === 429) this.limiter.rateLimited(ticket);
			else this.limiter.answered();
			return response;
		} finally {
			this.limiter.release();
		}
	}

	private async deliver(outgoing: Outgoing): Promise<Response> {
		const request = this.requestOf(outgoing);
		const owed = outgoing.owed && this.cancelled ? this.owedAuthorization(outgoing) : undefined;
		if (owed !== undefined) {
			// n8n aborts every authenticated request of a cancelled execution: this one is sent plainly,
			// with the header its credential would add.
			const headers = { ...request.headers, Authorization: owed };
			return (await this.ctx.helpers.httpRequest({ ...request, headers })) as Response;
		}
		const [type, credentialOptions] = this.credentialOf(outgoing);
		return (await this.ctx.helpers.httpRequestWithAuthentication.call(
			this.ctx,
			type,
			request,
			credentialOptions,
		)) as Response;
	}

	private requestOf({ method, url, body }: Outgoing): IHttpRequestOptions {
		return {
			method: method as IHttpRequestMethods,
			url,
			headers: {
				Accept: 'application/json',
				...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
			},
			...(body === undefined ? {} : { body }),
			// Raw text: we parse it ourselves, so a malformed body is reported, not silently passed on.
			encoding: 'text',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: this.timeout,
		};
	}

	/** The credential n8n signs the request with, and the options it is handed. */
	private credentialOf({ sendAs, token, form }: Outgoing): [string, IAdditionalCredentialOptions] {
		return this.signer.signed(sendAs, token, form);
	}

	/**
	 * The Authorization header an owed call carries when n8n would abort the authenticated request:
	 * the one the credential adds, in the attempt's form.
	 */
	private owedAuthorization({ sendAs, token, form }: Outgoing): string | undefined {
		return this.signer.owedAuthorization(sendAs, token, form);
	}

	/**
	 * Why a call is not sent: the execution was cancelled and the call is not owed. Before its first
	 * attempt nothing was applied; before a retry an earlier attempt may have been.
	 */
	private stopped(owed: boolean, attempt: number): NetworkFailure | undefined {
		if (!this.cancelled || owed) return undefined;
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
}
