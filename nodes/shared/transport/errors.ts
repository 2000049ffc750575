/**
 * The transport's one failure vocabulary. Every failed call is an AlbatoApiError that says what
 * happened (`outcome`) and whether the call may still have been applied; nothing above the
 * transport reads status codes or matches error texts to decide.
 */
import type { IHttpRequestMethods, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { hint, partnerHint, serviceMessage } from './serviceMessage';

/** PLAY and PAUSE are the service's own methods; n8n's type lists only the standard ones. */
export type ApiMethod = IHttpRequestMethods | 'PLAY' | 'PAUSE';

/**
 * What a failure means for whoever sent the call:
 * - `refused`: a 4xx (other than 404 and 429); nothing was applied;
 * - `notFound`: a 404;
 * - `rateLimited`: a 429 the retry budget could not sit out; nothing was applied;
 * - `failed`: safe to send again (nothing was applied, or the call is idempotent);
 * - `unknown`: a write that is not safe to repeat may have been applied (lost answer, timeout,
 *   5xx, or an unreadable 2xx after a POST).
 */
export type Outcome = 'refused' | 'notFound' | 'rateLimited' | 'failed' | 'unknown';

/** What came back: no answer (network), a 2xx that could not be used, a 2xx with `success: false`, or an error status. */
export type Answer = 'none' | 'unreadable' | 'declined' | 'status';

/** One call, as its errors describe it. */
export interface Call {
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

	/** The request never reached the service (refused, unknown host): nothing can have been applied. */
	get neverSent(): boolean {
		return NEVER_SENT.has(this.code ?? '');
	}
}

/** Network failures that prove the request never reached the service: nothing can have been applied. */
const NEVER_SENT = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'ENETUNREACH',
	'EHOSTUNREACH',
]);

interface FailureInit {
	call: { method: ApiMethod; path: string };
	status?: number;
	outcome: Outcome;
	answer: Answer;
	lost?: NetworkFailure;
	/** As NodeApiError takes them. */
	response: JsonObject;
	message: string;
	description?: string;
	httpCode?: string;
	itemIndex?: number;
}

export class AlbatoApiError extends NodeApiError {
	readonly call: { method: ApiMethod; path: string };

	/** The HTTP status, when the service answered. */
	readonly status: number | undefined;

	readonly outcome: Outcome;

	readonly answer: Answer;

	/** The network failure, when no answer arrived (the request may still have been applied). */
	lost: NetworkFailure | undefined;

	constructor(node: INode, init: FailureInit) {
		super(node, init.response, {
			message: init.message,
			description: init.description,
			httpCode: init.httpCode,
			itemIndex: init.itemIndex,
		});
		// n8n and the editor know NodeApiError by name: what users see stays the same.
		this.name = 'NodeApiError';
		this.call = init.call;
		this.status = init.status;
		this.outcome = init.outcome;
		this.answer = init.answer;
		this.lost = init.lost;
	}

	/** The service answered with a 4xx: it applied nothing. */
	get refusal(): boolean {
		return (
			this.outcome === 'refused' || this.outcome === 'notFound' || this.outcome === 'rateLimited'
		);
	}

	/** No clear verdict: the answer was lost, or a 2xx could not be used or said `success: false`. */
	get unsettled(): boolean {
		return this.lost !== undefined || this.answer === 'unreadable' || this.answer === 'declined';
	}

	/** A 400 or 422: the service rejected the values sent (not auth, not a missing resource). */
	get rejectsValues(): boolean {
		return this.status === 400 || this.status === 422;
	}

	/** A 401 or 403: the token or the end user may not do this. */
	get deniedAccess(): boolean {
		return this.status === 401 || this.status === 403;
	}

	/** A change refused because the installation is active ("pause first"). */
	get needsPause(): boolean {
		return this.status === 422 && /paus|active/i.test(this.message);
	}

	/** The same failure told in other words (its call, outcome, status and `httpCode` kept). */
	retold(node: INode, text: Retelling, response: JsonObject): AlbatoApiError {
		return new AlbatoApiError(node, {
			call: this.call,
			status: this.status,
			outcome: this.outcome,
			answer: this.answer,
			lost: this.lost,
			response,
			...text,
			httpCode: this.httpCode ?? undefined,
		});
	}
}

interface Retelling {
	message: string;
	description?: string;
	itemIndex?: number;
}

/**
 * A failure told in other words for the user (what could not be loaded, what was left paused):
 * the transport's errors keep their outcome and status; any other error becomes a NodeApiError.
 * `response` defaults to the cause's own message.
 */
export function retold(
	node: INode,
	cause: Error,
	text: Retelling,
	response: JsonObject = { message: cause.message, httpCode: shownOf(cause).httpCode ?? null },
): NodeApiError {
	if (cause instanceof AlbatoApiError) return cause.retold(node, text, response);
	return new NodeApiError(node, response, {
		...text,
		httpCode: shownOf(cause).httpCode ?? undefined,
	});
}

/** The outcome of any error: undefined when it is not the transport's. */
export function outcomeOf(error: unknown): Outcome | undefined {
	return error instanceof AlbatoApiError ? error.outcome : undefined;
}

/** What an error output shows of a failure: its description and, for the service's errors, the status. */
export function shownOf(error: Error): { description?: string | null; httpCode?: string | null } {
	const { description, httpCode } = error as Error & {
		description?: string | null;
		httpCode?: string | null;
	};
	return { description, httpCode };
}

/** Said of a call that is not safe to repeat (POST) when its outcome is unknown. */
const MAY_BE_APPLIED =
	'The service may have applied it: it was not sent again (not safe to repeat); check before running this item again.';

/** What the client lends its errors: the node, its redaction, its timeout and (partner mode) the credential's name. */
export interface ErrorSource {
	node: INode;
	redact(text: string): string;
	timeout: number;
	/** Partner mode: the Albato Partner API credential's name ('' when it has none). */
	partnerCredential?: string;
}

/** The status of an answer as an error; `unreadable`: a 2xx whose body cannot be used (probably applied). */
export function statusError(
	source: ErrorSource,
	status: number,
	body: unknown,
	{ method, path, itemIndex, safe, changesNothing }: Call,
	retries = 0,
	unreadable = false,
): AlbatoApiError {
	// Redacted before serviceMessage cuts a text body short: a cut could split the token.
	const text = typeof body === 'string' ? source.redact(body) : body;
	const message = source.redact(serviceMessage(text) ?? `The service answered ${status}`);
	const retried = retries > 0 ? ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})` : '';
	const success = status >= 200 && status < 300;
	const outcome: Outcome =
		(unreadable || status >= 500) && !safe
			? 'unknown'
			: status === 404
				? 'notFound'
				: status === 429
					? 'rateLimited'
					: status >= 400 && status < 500
						? 'refused'
						: 'failed';
	return new AlbatoApiError(source.node, {
		call: { method, path },
		status,
		outcome,
		answer: unreadable ? 'unreadable' : success ? 'declined' : 'status',
		response: { message, httpCode: String(status) },
		message,
		description: `${method} ${path} → ${status}${retried}. ${
			!safe && (status >= 500 || unreadable)
				? MAY_BE_APPLIED
				: unreadable
					? changesNothing
						? 'This call changes nothing; try again later.'
						: `The service may have applied it; ${method} is safe to send again: run this item again.`
					: (partnerHint(source.partnerCredential, status, path) ?? hint(status, message))
		}`,
		httpCode: String(status),
		itemIndex,
	});
}

export function networkError(
	source: ErrorSource,
	failure: NetworkFailure,
	{ method, path, itemIndex, safe }: Call,
	retries: number,
): AlbatoApiError {
	const message = failure.timedOut
		? `The service did not answer within ${source.timeout} ms`
		: `The request failed before the service answered: ${source.redact(failure.message)}`;
	const retried = retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
	const mayBeApplied = !safe && !failure.neverSent;
	return new AlbatoApiError(source.node, {
		call: { method, path },
		outcome: mayBeApplied ? 'unknown' : 'failed',
		answer: 'none',
		// Lets Installation → Create tell "no answer" apart from "refused" and look for what it created.
		lost: failure,
		response: { message, code: failure.code ?? null },
		message,
		description: `${method} ${path}${retried}. ${
			mayBeApplied
				? MAY_BE_APPLIED
				: failure.timedOut
					? 'Raise the Timeout option if the service is slow, or try again later.'
					: `Check the Base URL of the credential and that the service is reachable.`
		}`,
		itemIndex,
	});
}

/** A read that cannot be completed (a list too long, or whose pages repeat): nothing was changed. */
export function readError(
	node: INode,
	message: string,
	call: { method: ApiMethod; path: string },
	itemIndex: number | undefined,
	description: string,
): AlbatoApiError {
	return new AlbatoApiError(node, {
		call,
		outcome: 'failed',
		answer: 'status',
		response: { message },
		message,
		description,
		itemIndex,
	});
}

/** The network failure behind an error thrown by n8n's request helper. */
export function networkFailure(error: unknown, tookTimeout: boolean): NetworkFailure {
	const { message, code, cause } = (error ?? {}) as {
		message?: string;
		code?: string;
		cause?: { code?: string };
	};
	const errorCode = code ?? cause?.code;
	const timedOut = tookTimeout || errorCode === 'ETIMEDOUT' || /timeout/i.test(String(message));
	return new NetworkFailure(String(message ?? 'unknown network error'), errorCode, timedOut);
}

/**
 * A caught error, passed on as it is: the transport's errors are NodeApiErrors already, with their
 * outcome and status (wrapping them again, as n8n's lint suggests for raw errors, returns the same error).
 */
export function passOn(error: unknown): Error {
	return error as Error;
}
