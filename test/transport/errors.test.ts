/** The transport's failure vocabulary: the named checks that callers decide by, and retellings. */
import { NodeApiError } from 'n8n-workflow';

import {
	AlbatoApiError,
	type Answer,
	NetworkFailure,
	type Outcome,
	readError,
	retold,
} from '../../nodes/shared/transport/errors';
import { node } from '../support/node';

const failure = (
	outcome: Outcome,
	{
		status,
		answer = 'status',
		lost,
		message = 'said',
	}: { status?: number; answer?: Answer; lost?: NetworkFailure; message?: string } = {},
) =>
	new AlbatoApiError(node, {
		call: { method: 'PUT', path: '/installations/7' },
		status,
		outcome,
		answer,
		lost,
		response: { message },
		message,
		httpCode: status === undefined ? undefined : String(status),
	});

describe('AlbatoApiError: named checks', () => {
	it('is known to n8n as a NodeApiError', () => {
		const error = failure('failed', { status: 500 });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.name).toBe('NodeApiError');
	});

	it.each([
		['refused', true],
		['notFound', true],
		['rateLimited', true],
		['failed', false],
		['unknown', false],
	] as const)('appliedNothing of %p: %p', (outcome, appliedNothing) => {
		expect(failure(outcome).appliedNothing).toBe(appliedNothing);
	});

	it('unsettled: a lost answer, an unreadable or declined 2xx; not an error status', () => {
		const lost = new NetworkFailure('late', undefined, true);
		expect(failure('unknown', { answer: 'none', lost }).unsettled).toBe(true);
		expect(failure('failed', { answer: 'none' }).unsettled).toBe(false);
		expect(failure('unknown', { status: 200, answer: 'unreadable' }).unsettled).toBe(true);
		expect(failure('failed', { status: 200, answer: 'declined' }).unsettled).toBe(true);
		expect(failure('failed', { status: 500, answer: 'status' }).unsettled).toBe(false);
	});

	it.each([
		[400, true, false],
		[401, false, true],
		[403, false, true],
		[404, false, false],
		[422, true, false],
		[500, false, false],
	])('%p: rejects values %p, denied access %p', (status, rejectsValues, deniedAccess) => {
		const error = failure('refused', { status });
		expect(error.rejectsValues).toBe(rejectsValues);
		expect(error.deniedAccess).toBe(deniedAccess);
	});

	it('needsPause: a 400, 409 or 422 that speaks of pausing or of an active installation', () => {
		for (const status of [400, 409, 422]) {
			expect(failure('refused', { status, message: 'Pause it first' }).needsPause).toBe(true);
			expect(failure('refused', { status, message: 'Installation is ACTIVE' }).needsPause).toBe(
				true,
			);
			expect(failure('refused', { status, message: 'title: too long' }).needsPause).toBe(false);
		}
		for (const status of [401, 403, 404, 429, 500])
			expect(failure('refused', { status, message: 'Pause it first' }).needsPause).toBe(false);
		// Outside the seed's 422, words that may mean something else do not count.
		for (const message of ['Connection is inactive', 'Installation is already active'])
			for (const status of [400, 409])
				expect(failure('refused', { status, message }).needsPause).toBe(false);
	});

	it('neverSent: only for codes that prove the request did not leave', () => {
		expect(new NetworkFailure('x', 'ECONNREFUSED', false).neverSent).toBe(true);
		expect(new NetworkFailure('x', 'ENOTFOUND', false).neverSent).toBe(true);
		expect(new NetworkFailure('x', 'ECONNRESET', false).neverSent).toBe(false);
		expect(new NetworkFailure('x', undefined, true).neverSent).toBe(false);
	});
});

describe('retold: other words, same verdict', () => {
	it('a transport error keeps call, outcome, status, answer and httpCode', () => {
		const cause = failure('notFound', { status: 404, message: 'no such installation' });
		const told = retold(node, cause, { message: 'Could not load the installation', itemIndex: 3 });
		expect(told).toBeInstanceOf(AlbatoApiError);
		expect(told).toMatchObject({
			message: 'Could not load the installation',
			outcome: 'notFound',
			status: 404,
			answer: 'status',
			httpCode: '404',
			call: { method: 'PUT', path: '/installations/7' },
			errorResponse: { message: 'no such installation', httpCode: '404' },
		});
		expect(told.context.itemIndex).toBe(3);
	});

	it('any other error becomes a NodeApiError in the given words, its own message as response', () => {
		const told = retold(node, new Error('boom'), {
			message: 'Could not load the list',
			description: 'Try again later.',
			itemIndex: 1,
		});
		expect(told).not.toBeInstanceOf(AlbatoApiError);
		expect(told).toBeInstanceOf(NodeApiError);
		expect(told.message).toBe('Could not load the list');
		expect(told.description).toBe('Try again later.');
		expect(told.errorResponse).toEqual({ message: 'boom', httpCode: null });
		expect(told.httpCode).toBeNull();
		expect(told.context.itemIndex).toBe(1);
	});

	it('a given response replaces the cause’s', () => {
		const told = retold(node, new Error('boom'), { message: 'Lost' }, { message: 'instead' });
		expect(told.errorResponse).toEqual({ message: 'instead' });
	});
});

describe('readError: a read that cannot be completed', () => {
	it('failed, status answer, message as response', () => {
		const error = readError(
			node,
			'The list repeats its pages',
			{ method: 'GET', path: '/installations' },
			4,
			'Nothing was changed.',
		);
		expect(error).toMatchObject({
			outcome: 'failed',
			answer: 'status',
			status: undefined,
			message: 'The list repeats its pages',
			description: 'Nothing was changed.',
			call: { method: 'GET', path: '/installations' },
			errorResponse: { message: 'The list repeats its pages' },
		});
		expect(error.context.itemIndex).toBe(4);
	});
});
