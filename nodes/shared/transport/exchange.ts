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
import { type CallOptions, callOf, type SendAs } from './callOptions';
import { type AlbatoApiError, type ApiMethod, type Call, NetworkFailure } from './errors';
import type { PartnerSession } from './partnerSession';
import { previewRefusal } from './preview';
import { RETRYABLE_STATUS, RetryBudget, retryAfter } from './retry';
import type { Sender } from './sender';
import { INVALID_JSON } from './serviceMessage';
import type { TransportOptions } from './settings';
import { type Trial, wayName } from './tokenForms';
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
	/** How a call sent as `sendAs` puts its token in the header (see tokenForms.ts). */
	trialFor(sendAs: SendAs, token: string | undefined): Promise<Trial>;
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
	/** Whose token it carries: the call's, until update-user-data falls back to the end user's. */
	sendAs: SendAs;
	/** How its token goes in the header; a second on top once it carries the end user's instead. */
	trials: Trial[];
	/** 401s answered to a form the service did not take: not retries. */
	refusals: number;
	/** Partner mode, sent as the item's end user: who, and the token it carries. */
	endUser?: { session: PartnerSession; endUserId: string; token: string; refreshed: boolean };
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
type Next =
	| { done: Answered }
	| 'otherForm'
	| 'freshToken'
	| { wait: number }
	| { fail: AlbatoApiError };

/** One call with retries: sent, then answered, retried, given a fresh token, or failed. */
export async function exchange(
	line: Line,
	method: ApiMethod,
	path: string,
	options: CallOptions,
): Promise<Exchanged> {
	const prepared = await prepare(line, method, path, options);
	try {
		for (let attempt = 0; ; attempt++) {
			const next = nextAfter(prepared, await attemptOnce(prepared, attempt), attempt);
			if (next === 'freshToken') await freshToken(prepared);
			else if (next === 'otherForm') await otherForm(prepared);
			else if ('wait' in next) await sleep(next.wait);
			else if ('fail' in next) throw next.fail;
			else return answered(prepared, next.done);
		}
	} finally {
		// Calls waiting to learn a form from this one go, whatever became of it.
		for (const trial of prepared.trials) trial.done();
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
	const sendAs = options.sendAs ?? 'endUser';
	const endUser = await endUserOf(line, sendAs, options);
	const sent = endUser ? [endUser.token] : [];
	const { maxRetries, retryBudget } = line.settings;
	const retries = new RetryBudget(call.safe, maxRetries, retryBudget);
	const source = line.errorSourceFor(options, sent);
	const trials = [await line.trialFor(sendAs, endUser?.token)];
	const at = { line, method, url, options, call, sendAs, trials, refusals: 0 };
	const prepared = { ...at, endUser, sent, source, retries };
	// update-user-data, where this process learnt that the end user's token is the one taken.
	await otherForm(prepared);
	return prepared;
}

/** Partner mode, sent as the item's end user: who, and their token (minted before the call). */
async function endUserOf(line: Line, sendAs: SendAs, { itemIndex, owed }: CallOptions) {
	const session = sendAs === 'endUser' ? line.partner : undefined;
	if (!session) return undefined;
	const endUserId = session.endUserId(itemIndex);
	const token = await session.token(endUserId, { itemIndex, owed });
	return { session, endUserId, token, refreshed: false };
}

/** Sends once: the answer, or why none came (a call a Stop kept from being sent included). */
async function attemptOnce(
	{ line, method, url, options, endUser, sendAs, trials }: Prepared,
	attempt: number,
): Promise<Answered | NetworkFailure> {
	const { body, owed = false } = options;
	const sentAt = Date.now();
	const way = trials[trials.length - 1].way;
	try {
		const form = way === 'endUserToken' ? 'bearer' : way;
		const outgoing = { method, url, body, sendAs, token: endUser?.token, form, owed };
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
	const { line, source, call } = prepared;
	if (answer instanceof NetworkFailure) {
		const wait = line.sender.cancelled ? undefined : prepared.retries.afterFailure(attempt);
		return wait !== undefined ? { wait } : { fail: networkError(source, answer, call, attempt) };
	}
	const { status, text, body } = answer;
	if (tookToken(status)) for (const trial of prepared.trials) trial.accepted();
	if (status >= 200 && status < 300) return { done: answer };
	const refused = status === 401 ? afterRefusal(prepared) : undefined;
	if (refused) return refused;
	const wait = retryWait(prepared, answer, attempt);
	if (wait !== undefined) return { wait };
	const shown = body === INVALID_JSON ? text : body;
	const retries = attempt - prepared.refusals;
	const refusedAs = status === 401 ? refusedEverywhere(prepared) : undefined;
	const takenAs = takenIn(prepared, status);
	const actingFor = prepared.endUser?.endUserId;
	const failing = { retries, refusedAs, takenAs, actingFor };
	return { fail: statusError(source, status, shown, call, failing) };
}

/** The form the master token was taken in, for an answer past the token check to a master call. */
function takenIn({ call, trials }: Prepared, status: number): string | undefined {
	if (!call.withMasterToken || !tookToken(status)) return undefined;
	return wayName(trials[trials.length - 1].way);
}

/** An answer past the token check: any but a 401, a 403 (it may be the token's), a 429 or a 5xx. */
function tookToken(status: number): boolean {
	return status < 500 && status !== 401 && status !== 403 && status !== 429;
}

/**
 * After a 401, which applied nothing: the token once in the next form, else (a minted token) one
 * fresh token; nothing more, so a refused token never loops.
 */
function afterRefusal(prepared: Prepared): 'otherForm' | 'freshToken' | undefined {
	const { trials, endUser } = prepared;
	if (trials[trials.length - 1].next()) {
		prepared.refusals++;
		return 'otherForm';
	}
	return endUser && !endUser.refreshed ? 'freshToken' : undefined;
}

/**
 * Every form was refused: the next call finds out again. When more than one was tried, the
 * sentence naming each (else the usual hint, which names the option).
 */
function refusedEverywhere({ trials }: Prepared): string | undefined {
	for (const trial of trials) trial.refused();
	return trials.length > 1 || trials[0].tried.length > 1 ? trials[0].told() : undefined;
}

/** The next form: update-user-data's fallback to the end user's own token mints it first. */
async function otherForm(prepared: Prepared): Promise<void> {
	const { line, trials, options } = prepared;
	if (trials[trials.length - 1].way !== 'endUserToken') return;
	prepared.sendAs = 'endUser';
	prepared.endUser = await endUserOf(line, 'endUser', options);
	if (!prepared.endUser) return;
	prepared.sent.push(prepared.endUser.token);
	trials.push(await line.trialFor('endUser', prepared.endUser.token));
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
	const { session, endUserId, token: stale } = endUser;
	const { itemIndex, owed } = options;
	endUser.refreshed = true;
	endUser.token = await session.token(endUserId, { itemIndex, owed, stale });
	sent.push(endUser.token);
}

/** The data of a 2xx, out of its envelope: an unreadable body or `success: false` fails. */
function answered({ source, options, call }: Prepared, answer: Answered): Exchanged {
	const { status, headers, body } = answer;
	return { headers, body, data: successData(source, status, body, options.expect, call) };
}
