/**
 * One call with its retries: prepared (URL, how its retries and errors see it, Preview's refusal,
 * the end user's token), then attempted until the next step is done or failed.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	type ErrorSource,
	networkError,
	networkFailure,
	statusError,
	successData,
} from './answers';
import { type CallOptions, callOf } from './callOptions';
import { type AlbatoApiError, type ApiMethod, type Call, NetworkFailure } from './errors';
import type { PartnerSession } from './partnerSession';
import { previewRefusal } from './preview';
import { RETRYABLE_STATUS, RetryBudget, retryAfter } from './retry';
import type { Sender } from './sender';
import { INVALID_JSON } from './serviceMessage';
import type { TransportOptions } from './settings';
import { parseBody, queryString } from './wire';

/** What an exchange needs of its client. */
export interface Line {
	readonly settings: TransportOptions;
	readonly node: INode;
	readonly baseUrl: string;
	readonly partner: PartnerSession | undefined;
	readonly sender: Sender;
	/** The error source of one call, hiding the end-user tokens it sent (`sent` grows on a 401). */
	errorSourceFor(options: CallOptions, sent: readonly string[]): ErrorSource;
}

/** The answer's headers, its parsed body, and the data inside its envelope. */
interface Exchanged {
	headers: IDataObject;
	body: unknown;
	data: unknown;
}

/** One call, ready to be sent: everything its attempts and its errors need. */
interface Prepared {
	line: Line;
	method: ApiMethod;
	url: string;
	options: CallOptions;
	call: Call;
	/** Partner mode, sent as the item's end user: who, and the token it carries. */
	endUser?: { session: PartnerSession; userId: string; token: string; refreshed: boolean };
	/** The end-user tokens it sent (a second after a 401): its errors hide them. */
	sent: string[];
	source: ErrorSource;
	retries: RetryBudget;
}

/** One attempt's answer: its status, headers, text and parsed body. */
interface Answered {
	status: number;
	headers: IDataObject;
	text: unknown;
	body: unknown;
}

/** What follows an attempt. */
type Next = { done: Answered } | 'freshToken' | { wait: number } | { fail: AlbatoApiError };

/** One call with retries: sent, then answered, retried, given a fresh token, or failed. */
export async function exchange(
	line: Line,
	method: ApiMethod,
	path: string,
	options: CallOptions,
): Promise<Exchanged> {
	const prepared = await prepare(line, method, path, options);
	for (let attempt = 0; ; attempt++) {
		const next = nextAfter(prepared, await attemptOnce(prepared, attempt), attempt);
		if (next === 'freshToken') await freshToken(prepared);
		else if ('wait' in next) await sleep(next.wait);
		else if ('fail' in next) throw next.fail;
		else return answered(prepared, next.done);
	}
}

/** Where it goes, how its retries and errors see it, and (as an end user) the token it carries. */
async function prepare(
	line: Line,
	method: ApiMethod,
	path: string,
	options: CallOptions,
): Promise<Prepared> {
	const url = line.baseUrl + path + queryString(options);
	const call = callOf(method, path, options);
	// The safety net under every operation: in Preview nothing that may change the service leaves.
	if (line.settings.preview && !call.changesNothing) throw previewRefusal(line.node, call);
	const endUser = await endUserOf(line, options);
	const sent = endUser ? [endUser.token] : [];
	const { maxRetries, retryBudget } = line.settings;
	const retries = new RetryBudget(call.safe, maxRetries, retryBudget);
	const source = line.errorSourceFor(options, sent);
	return { line, method, url, options, call, endUser, sent, source, retries };
}

/** Partner mode, sent as the item's end user: who, and their token (minted before the call). */
async function endUserOf(line: Line, { sendAs = 'endUser', itemIndex, owed }: CallOptions) {
	const session = sendAs === 'endUser' ? line.partner : undefined;
	if (!session) return undefined;
	const userId = session.endUserId(itemIndex);
	const token = await session.token(userId, { itemIndex, owed });
	return { session, userId, token, refreshed: false };
}

/** Sends once: the answer, or why none came (a call a Stop kept from being sent included). */
async function attemptOnce(
	{ line, method, url, options, endUser }: Prepared,
	attempt: number,
): Promise<Answered | NetworkFailure> {
	const { body, sendAs = 'endUser', owed = false } = options;
	const sentAt = Date.now();
	try {
		const outgoing = { method, url, body, sendAs, token: endUser?.token, owed };
		const { statusCode, headers, body: text } = await line.sender.send(outgoing, attempt);
		return { status: statusCode, headers: headers ?? {}, text, body: parseBody(text) };
	} catch (error) {
		if (error instanceof NetworkFailure) return error;
		// n8n-core rewrites the error's message; the time spent tells a timeout apart reliably.
		return networkFailure(error, Date.now() - sentAt >= line.settings.timeout);
	}
}

/** What follows an attempt: done (a 2xx), a fresh token (a 401), a wait and a retry, or failure. */
function nextAfter(prepared: Prepared, answer: Answered | NetworkFailure, attempt: number): Next {
	const { line, source, call, endUser } = prepared;
	if (answer instanceof NetworkFailure) {
		const wait = line.sender.cancelled ? undefined : prepared.retries.afterFailure(attempt);
		return wait !== undefined ? { wait } : { fail: networkError(source, answer, call, attempt) };
	}
	const { status, text, body } = answer;
	if (status >= 200 && status < 300) return { done: answer };
	// A minted token refused: nothing was applied, so one fresh token and one more try is safe.
	if (status === 401 && endUser && !endUser.refreshed) return 'freshToken';
	const wait = retryWait(prepared, answer, attempt);
	if (wait !== undefined) return { wait };
	const shown = body === INVALID_JSON ? text : body;
	return { fail: statusError(source, status, shown, call, { retries: attempt }) };
}

/** The wait before retrying a 429 or a 502–504, within the budget; none once cancelled. */
function retryWait(
	{ line, retries }: Prepared,
	{ status, headers }: Answered,
	attempt: number,
): number | undefined {
	if (!RETRYABLE_STATUS.has(status) || line.sender.cancelled) return undefined;
	const wanted = retryAfter(headers['retry-after']);
	return status === 429 ? retries.afterRateLimit(wanted) : retries.afterFailure(attempt, wanted);
}

/** After a 401: the end user's refused token dropped, and a fresh one minted. */
async function freshToken({ endUser, options, sent }: Prepared): Promise<void> {
	if (!endUser) return;
	const { session, userId, token: stale } = endUser;
	const { itemIndex, owed } = options;
	endUser.refreshed = true;
	endUser.token = await session.token(userId, { itemIndex, owed, stale });
	sent.push(endUser.token);
}

/** The data of a 2xx, out of its envelope: an unreadable body or `success: false` fails. */
function answered({ source, options, call }: Prepared, answer: Answered): Exchanged {
	const { status, headers, body } = answer;
	return { headers, body, data: successData(source, status, body, options.expect, call) };
}
