/** What the service answered (or that it did not), as data or as an AlbatoApiError. */
import type { INode } from 'n8n-workflow';

import { successFlagOf, unwrapEnvelope } from '../readers/shapes';
import type { CallOptions } from './callOptions';
import { AlbatoApiError, type Call, NetworkFailure, type Outcome } from './errors';
import { describeBody, hint, INVALID_JSON, partnerHint, serviceMessage } from './serviceMessage';

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

/** A 2xx whose body cannot be used: probably applied; Installation → Create looks for what it made. */
function unreadableError(
	source: ErrorSource,
	status: number,
	message: string,
	call: Call,
): AlbatoApiError {
	return statusError(source, status, message, call, 0, true);
}
