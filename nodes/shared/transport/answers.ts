/** What the service answered (or that it did not), as data or as an AlbatoApiError. */
import type { INode } from 'n8n-workflow';

import { successFlagOf, unwrapEnvelope } from '../readers/shapes';
import type { CallOptions } from './callOptions';
import {
	AlbatoApiError,
	type Answer,
	type Call,
	CANCELLED_BEFORE_RETRY,
	CANCELLED_BEFORE_SENDING,
	NetworkFailure,
	type Outcome,
} from './errors';
import { describeBody, hint, INVALID_JSON, partnerHint, serviceMessage } from './serviceMessage';

/** Said of a call that is not safe to repeat (POST) when its outcome is unknown. */
const MAY_BE_APPLIED =
	'The service may have applied it: it was not sent again (not safe to repeat); check before running this item again.';

/**
 * What the client lends its errors: the node, its redaction, its timeout and (partner mode) the
 * credential's name.
 */
export interface ErrorSource {
	node: INode;
	redact(text: string): string;
	timeout: number;
	/** Partner mode: the Albato Partner API credential's name ('' when it has none). */
	partnerCredential?: string;
}

/** An answer that failed, as the rules below read it. */
interface FailedAnswer {
	status: number;
	/** A 2xx whose body cannot be used (probably applied). */
	unreadable: boolean;
	call: Call;
}

/** A 5xx or an unusable 2xx after a call not safe to send again: it may have been applied. */
const mayBeApplied = ({ status, unreadable, call }: FailedAnswer) =>
	!call.safe && (unreadable || status >= 500);

/** What a failed answer means: the first rule that holds; `failed` when none does. */
const OUTCOME_RULES: ReadonlyArray<{ outcome: Outcome; when: (answer: FailedAnswer) => boolean }> =
	[
		{ outcome: 'unknown', when: mayBeApplied },
		{ outcome: 'notFound', when: ({ status }) => status === 404 },
		{ outcome: 'rateLimited', when: ({ status }) => status === 429 },
		{ outcome: 'refused', when: ({ status }) => status >= 400 && status < 500 },
	];

/** What to do about a failed answer: the first rule that holds; otherwise the status's hint. */
const ADVICE_RULES: ReadonlyArray<{
	when: (answer: FailedAnswer) => boolean;
	advice: (answer: FailedAnswer) => string;
}> = [
	{ when: mayBeApplied, advice: () => MAY_BE_APPLIED },
	{
		when: ({ unreadable, call }) => unreadable && call.changesNothing,
		advice: () => 'This call changes nothing; try again later.',
	},
	{
		when: ({ unreadable }) => unreadable,
		advice: ({ call }) =>
			`The service may have applied it; ${call.method} is safe to send again: run this item again.`,
	},
];

/** What came back, for the error's `answer`. */
function answerOf({ status, unreadable }: FailedAnswer): Answer {
	if (unreadable) return 'unreadable';
	if (status >= 200 && status < 300) return 'declined'; // `success: false`
	return 'status';
}

/** How a failed answer came: after how many retries, and whether it was a 2xx it could not use. */
interface Failing {
	retries?: number;
	/** A 2xx whose body cannot be used (probably applied). */
	unreadable?: boolean;
	/** A 401 after the token was sent in every form to try: which, and the option that pins one. */
	refusedAs?: string;
	/** The form the master token was taken in (an answer past the token check). */
	takenAs?: string;
	/** The end user the call was sent as (partner mode). */
	actingFor?: string;
}

/** The status of an answer as an error. */
export function statusError(
	source: ErrorSource,
	status: number,
	body: unknown,
	call: Call,
	{ retries = 0, unreadable = false, refusedAs, takenAs, actingFor }: Failing = {},
): AlbatoApiError {
	const { method, path, itemIndex } = call;
	// Redacted before serviceMessage cuts a text body short: a cut could split the token.
	const text = typeof body === 'string' ? source.redact(body) : body;
	const message = source.redact(serviceMessage(text) ?? `The service answered ${status}`);
	const retried = retries > 0 ? ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})` : '';
	const answer: FailedAnswer = { status, unreadable, call };
	const outcome = OUTCOME_RULES.find((rule) => rule.when(answer))?.outcome ?? 'failed';
	const advice =
		refusedAs ??
		ADVICE_RULES.find((rule) => rule.when(answer))?.advice(answer) ??
		partnerHint(source.partnerCredential, status, { ...call, takenAs, actingFor }) ??
		hint(status, message);
	return new AlbatoApiError(source.node, {
		call: { method, path },
		status,
		outcome,
		answer: answerOf(answer),
		response: { message, httpCode: String(status) },
		message,
		description: `${method} ${path} → ${status}${retried}. ${advice}`,
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
		// Lets Installation → Create tell "no answer" apart from "refused" and look for what it
		// created.
		lost: failure,
		response: { message, code: failure.code ?? null },
		message,
		description: `${method} ${path}${retried}. ${networkAdvice(failure, mayBeApplied)}`,
		itemIndex,
	});
}

/** What to do when no answer came. */
function networkAdvice(failure: NetworkFailure, mayBeApplied: boolean): string {
	if (failure.code === CANCELLED_BEFORE_SENDING)
		return 'The execution was canceled (Stop, or a timeout) before it was sent: nothing was applied.';
	if (failure.code === CANCELLED_BEFORE_RETRY)
		return `The execution was canceled (Stop, or a timeout), so it was not tried again. ${mayBeApplied ? MAY_BE_APPLIED : ''}`.trim();
	if (mayBeApplied) return MAY_BE_APPLIED;
	if (failure.timedOut)
		return 'Raise the Timeout option if the service is slow, or try again later.';
	return 'Check the Base URL of the credential and that the service is reachable.';
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

/** The data of a 2xx answer, out of its envelope: an unreadable body or `success: false` fails. */
export function successData(
	source: ErrorSource,
	status: number,
	body: unknown,
	expect: CallOptions['expect'],
	call: Call,
): unknown {
	if (body === INVALID_JSON) {
		throw unreadableError(
			source,
			status,
			'The service answered with a body that is not valid JSON',
			call,
		);
	}
	if (successFlagOf(body) === false) throw statusError(source, status, body, call);
	const data = unwrapEnvelope(body);
	if (expect && !expect.holds(data)) {
		const message = `The service's ${expect.what} could not be read: it answered ${describeBody(data)}`;
		throw unreadableError(source, status, message, call);
	}
	return data;
}

/**
 * A 2xx whose body cannot be used: probably applied; Installation → Create looks for what it made.
 */
function unreadableError(
	source: ErrorSource,
	status: number,
	message: string,
	call: Call,
): AlbatoApiError {
	return statusError(source, status, message, call, { unreadable: true });
}
