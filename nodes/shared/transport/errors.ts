/**
 * The transport's one failure vocabulary. Every failed call is an AlbatoApiError that says what
 * happened (`outcome`) and whether the call may still have been applied; nothing above the
 * transport reads status codes or matches error texts to decide. Callers decide from `outcome`
 * (`outcomeOf` for any error) and the named checks below; CONTRIBUTING ("The failure vocabulary")
 * lists the two callers that read more, and why.
 */
import type { IHttpRequestMethods, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { refusedWhileActive } from './serviceMessage';

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

/**
 * What came back: no answer (network), a 2xx that could not be used, a 2xx with `success: false`,
 * or an error status. The transport's own detail behind `outcome` and `unsettled`.
 */
export type Answer = 'none' | 'unreadable' | 'declined' | 'status';

/** One call, as its errors describe it. */
export interface Call {
	method: ApiMethod;
	path: string;
	itemIndex: number | undefined;
	/**
	 * Safe to send again (GET, PUT, PLAY, PAUSE, and the token call): never "may have applied it, not
	 * sent again".
	 */
	safe: boolean;
	/** A read (GET, and the token call): an unreadable answer applied nothing. */
	changesNothing: boolean;
	/** Sent with the partner's master token (the /wl user calls, update-user-data as master). */
	withMasterToken?: boolean;
	/** About one end user (a /wl call with their id): a 404 most likely means no such user. */
	about?: 'endUser';
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

	/**
	 * The request never reached the service (refused, unknown host): nothing can have been applied.
	 */
	get neverSent(): boolean {
		return NEVER_SENT.has(this.code ?? '');
	}
}

/** The code of a request not sent at all because the execution had been cancelled. */
export const CANCELLED_BEFORE_SENDING = 'CANCELLED_BEFORE_SENDING';
/** Not retried because the execution had been cancelled: an earlier attempt may have applied it. */
export const CANCELLED_BEFORE_RETRY = 'CANCELLED_BEFORE_RETRY';

/**
 * Network failures that prove the request never reached the service: nothing can have been applied.
 */
const NEVER_SENT = new Set([
	CANCELLED_BEFORE_SENDING,
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
	readonly lost: NetworkFailure | undefined;

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

	/**
	 * The service said no with a 4xx (`refused`, `notFound` or `rateLimited`), or the request was never
	 * sent because the execution had been cancelled: it applied nothing.
	 * Not the same as `outcome === 'refused'`, which leaves out 404 and 429.
	 */
	get appliedNothing(): boolean {
		return (
			this.outcome === 'refused' ||
			this.outcome === 'notFound' ||
			this.outcome === 'rateLimited' ||
			this.lost?.code === CANCELLED_BEFORE_SENDING
		);
	}

	/** No clear verdict: the answer was lost, or a 2xx could not be used or said `success: false`. */
	get unsettled(): boolean {
		return this.lost !== undefined || this.answer === 'unreadable' || this.answer === 'declined';
	}

	/** A 2xx that said `success: false`: the service declined the request in its own words. */
	get declined(): boolean {
		return this.answer === 'declined';
	}

	/** A 2xx whose body could not be used (empty, another shape): the call may have been applied. */
	get unreadable(): boolean {
		return this.answer === 'unreadable';
	}

	/** A 400 or 422: the service rejected the values sent (not auth, not a missing resource). */
	get rejectsValues(): boolean {
		return this.status === 400 || this.status === 422;
	}

	/** A 401 or 403: the token or the end user may not do this. */
	get deniedAccess(): boolean {
		return this.status === 401 || this.status === 403;
	}

	/** A 405: the service does not take this method here (list-plans, documented as GET or POST). */
	get wrongMethod(): boolean {
		return this.status === 405;
	}

	/** A change refused because the installation is active ("pause first"): the hint's rule too. */
	get needsPause(): boolean {
		return this.status !== undefined && refusedWhileActive(this.status, this.message);
	}

	/**
	 * The same failure with no lost answer: for the call it stood for, which was never sent (a token
	 * call whose answer was lost is not a lost answer of the end user's call).
	 */
	withoutLostAnswer(): AlbatoApiError {
		if (this.lost === undefined) return this;
		const lost = { value: undefined, enumerable: true, configurable: true };
		const descriptors = { ...Object.getOwnPropertyDescriptors(this), lost };
		return Object.create(Object.getPrototypeOf(this) as object, descriptors) as AlbatoApiError;
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

/** The named checks an AlbatoApiError answers (what the service said, or did not). */
export type NamedCheck =
	| 'appliedNothing'
	| 'unsettled'
	| 'declined'
	| 'unreadable'
	| 'rejectsValues'
	| 'deniedAccess'
	| 'wrongMethod'
	| 'needsPause';

/** One of AlbatoApiError's named checks, for any error (false when it is not the transport's). */
export function errorSays(error: unknown, check: NamedCheck): boolean {
	return error instanceof AlbatoApiError && error[check];
}

/** The outcome of any error: undefined when it is not the transport's. */
export function outcomeOf(error: unknown): Outcome | undefined {
	return error instanceof AlbatoApiError ? error.outcome : undefined;
}

/**
 * What an error output shows of a failure: its description and, for the service's errors, the
 * status.
 */
export function shownOf(error: Error): { description?: string | null; httpCode?: string | null } {
	const { description, httpCode } = error as Error & {
		description?: string | null;
		httpCode?: string | null;
	};
	return { description, httpCode };
}

/**
 * A read that cannot be completed (a list too long, or whose pages repeat): nothing was changed.
 */
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
