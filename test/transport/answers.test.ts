/**
 * What an answer (or its absence) becomes: the outcome, the words and the response of each error.
 */

import {
	type ErrorSource,
	networkError,
	networkFailure,
	statusError,
	successData,
} from '../../nodes/shared/transport/answers';
import { type Call, NetworkFailure } from '../../nodes/shared/transport/errors';
import { INVALID_JSON } from '../../nodes/shared/transport/serviceMessage';
import { node } from '../support/node';

const source: ErrorSource = {
	node,
	redact: (text) => text.replace(/s3cret/g, '***'),
	timeout: 1500,
};
const MAY_BE_APPLIED =
	'The service may have applied it: it was not sent again (not safe to repeat); check before running this item again.';
const post: Call = {
	method: 'POST',
	path: '/solutions/install',
	itemIndex: 2,
	safe: false,
	changesNothing: false,
};
const get: Call = {
	method: 'GET',
	path: '/installations',
	itemIndex: 0,
	safe: true,
	changesNothing: true,
};
const put: Call = {
	method: 'PUT',
	path: '/installations/7',
	itemIndex: 1,
	safe: true,
	changesNothing: false,
};

describe('statusError: outcome by status and safety', () => {
	it.each([
		[199, post, 'failed', 'status'],
		[200, post, 'failed', 'declined'],
		[299, post, 'failed', 'declined'],
		[300, post, 'failed', 'status'],
		[399, post, 'failed', 'status'],
		[400, post, 'refused', 'status'],
		[404, post, 'notFound', 'status'],
		[405, post, 'refused', 'status'],
		[429, post, 'rateLimited', 'status'],
		[499, post, 'refused', 'status'],
		[500, post, 'unknown', 'status'],
		[503, post, 'unknown', 'status'],
		[500, get, 'failed', 'status'],
		[500, put, 'failed', 'status'],
	] as const)('%p after %o → %p (%p)', (status, call, outcome, answer) => {
		const error = statusError(source, status, { message: 'said' }, call);
		expect(error.outcome).toBe(outcome);
		expect(error.answer).toBe(answer);
		expect(error.status).toBe(status);
		expect(error.httpCode).toBe(String(status));
		expect(error.call).toEqual({ method: call.method, path: call.path });
	});

	it('an unreadable 2xx: unknown after a POST, failed after a safe call', () => {
		expect(statusError(source, 200, 'x', post, { unreadable: true }).outcome).toBe('unknown');
		expect(statusError(source, 200, 'x', post, { unreadable: true }).answer).toBe('unreadable');
		expect(statusError(source, 200, 'x', put, { unreadable: true }).outcome).toBe('failed');
		expect(statusError(source, 200, 'x', get, { unreadable: true }).outcome).toBe('failed');
	});
});

describe('statusError: message, description and response', () => {
	it('without a service message says the status; the response holds message and httpCode', () => {
		const error = statusError(source, 502, {}, put);
		expect(error.message).toBe('The service answered 502');
		expect(error.description).toBe(
			'PUT /installations/7 → 502. The service failed; try again later.',
		);
		expect(error.errorResponse).toEqual({ message: 'The service answered 502', httpCode: '502' });
		expect(error.context.itemIndex).toBe(1);
	});

	it('redacts a text body and counts retries', () => {
		const once = statusError(source, 503, 'token s3cret refused', get, { retries: 1 });
		expect(once.message).toBe('token *** refused');
		expect(once.description).toBe(
			'GET /installations → 503 (after 1 retry). The service failed; try again later.',
		);
		const twice = statusError(source, 429, { message: 'slow down' }, post, { retries: 2 });
		expect(twice.description).toBe(
			'POST /solutions/install → 429 (after 2 retries). The service is rate limiting: lower Items in Flight (Request Options) or retry later.',
		);
	});

	it('a 5xx after a POST may have been applied; after a PUT it gives the status hint', () => {
		expect(statusError(source, 500, { message: 'down' }, post).description).toBe(
			`POST /solutions/install → 500. ${MAY_BE_APPLIED}`,
		);
		expect(statusError(source, 404, { message: 'gone' }, post).description).toBe(
			'POST /solutions/install → 404. Check the ID: it does not exist or belongs to another end user.',
		);
	});

	it('an unreadable answer: may be applied (POST), send again (PUT), try later (GET)', () => {
		expect(statusError(source, 200, 'odd', post, { unreadable: true }).description).toBe(
			`POST /solutions/install → 200. ${MAY_BE_APPLIED}`,
		);
		expect(statusError(source, 200, 'odd', put, { unreadable: true }).description).toBe(
			'PUT /installations/7 → 200. The service may have applied it; PUT is safe to send again: run this item again.',
		);
		expect(statusError(source, 200, 'odd', get, { unreadable: true }).description).toBe(
			'GET /installations → 200. This call changes nothing; try again later.',
		);
	});
});

describe('networkError: no answer', () => {
	it('a lost POST may be applied; the response holds message and code', () => {
		const failure = new NetworkFailure('socket hang up s3cret', 'EPIPE', false);
		const error = networkError(source, failure, post, 1);
		expect(error.outcome).toBe('unknown');
		expect(error.answer).toBe('none');
		expect(error.lost).toBe(failure);
		expect(error.message).toBe(
			'The request failed before the service answered: socket hang up ***',
		);
		expect(error.description).toBe(`POST /solutions/install after 1 retry. ${MAY_BE_APPLIED}`);
		expect(error.errorResponse).toEqual({
			message: 'The request failed before the service answered: socket hang up ***',
			code: 'EPIPE',
		});
	});

	it('a refused connection applied nothing: check the Base URL', () => {
		const error = networkError(
			source,
			new NetworkFailure('refused', 'ECONNREFUSED', false),
			post,
			2,
		);
		expect(error.outcome).toBe('failed');
		expect(error.description).toBe(
			'POST /solutions/install after 2 retries. Check the Base URL of the credential and that the service is reachable.',
		);
	});

	it('a timed-out safe call: raise the Timeout; no code is null', () => {
		const error = networkError(source, new NetworkFailure('late', undefined, true), get, 0);
		expect(error.outcome).toBe('failed');
		expect(error.message).toBe('The service did not answer within 1500 ms');
		expect(error.description).toBe(
			'GET /installations. Raise the Timeout option if the service is slow, or try again later.',
		);
		expect(error.errorResponse).toEqual({
			message: 'The service did not answer within 1500 ms',
			code: null,
		});
	});
});

describe('networkFailure: what n8n threw', () => {
	it('takes the code, else the cause’s code', () => {
		expect(networkFailure({ message: 'no', code: 'ENOTFOUND' }, false).code).toBe('ENOTFOUND');
		expect(networkFailure({ message: 'no', cause: { code: 'EAI_AGAIN' } }, false).code).toBe(
			'EAI_AGAIN',
		);
		expect(
			networkFailure({ message: 'no', code: 'ECONNRESET', cause: { code: 'EPIPE' } }, false).code,
		).toBe('ECONNRESET');
	});

	it('timed out: when told, on ETIMEDOUT, or when the message says timeout', () => {
		expect(networkFailure({ message: 'socket hang up', code: 'ECONNRESET' }, false).timedOut).toBe(
			false,
		);
		expect(networkFailure({ message: 'socket hang up' }, true).timedOut).toBe(true);
		expect(networkFailure({ message: 'socket hang up', code: 'ETIMEDOUT' }, false).timedOut).toBe(
			true,
		);
		expect(networkFailure({ message: 'Read TIMEOUT reached' }, false).timedOut).toBe(true);
	});

	it('keeps the message; none is an unknown network error', () => {
		expect(networkFailure({ message: 'socket hang up' }, false).message).toBe('socket hang up');
		const none = networkFailure(undefined, false);
		expect(none.message).toBe('unknown network error');
		expect(none.code).toBeUndefined();
		expect(none.timedOut).toBe(false);
	});
});

describe('successData: the data of a 2xx', () => {
	it('unwraps the envelope', () => {
		expect(successData(source, 200, { success: true, data: [1] }, undefined, get)).toEqual([1]);
	});

	it('`success: false` is declined with the service message', () => {
		let caught: unknown;
		try {
			successData(source, 200, { success: false, message: 'Not allowed' }, undefined, post);
		} catch (error) {
			caught = error;
		}
		expect(caught).toMatchObject({
			answer: 'declined',
			outcome: 'failed',
			message: 'Not allowed',
			status: 200,
		});
	});

	it('invalid JSON and an unexpected shape are unreadable', () => {
		expect(() => successData(source, 201, INVALID_JSON, undefined, post)).toThrow(
			'The service answered with a body that is not valid JSON',
		);
		const expect_ = { what: 'list', holds: Array.isArray };
		expect(() => successData(source, 200, { id: 1 }, expect_, get)).toThrow(
			"The service's list could not be read: it answered an object (keys: id)",
		);
	});
});
