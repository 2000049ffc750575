/**
 * withSentence: one more sentence in an error's description, on a new error; the given one stays as
 * it was.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { withSentence } from '../../nodes/AlbatoSolutions/actions/withSentence';
import { AlbatoApiError } from '../../nodes/shared/transport/errors';
import { node } from '../support/node';

const apiError = () =>
	new AlbatoApiError(node, {
		call: { method: 'PUT', path: '/bundle/data/9002' },
		status: 422,
		outcome: 'refused',
		answer: 'status',
		response: { message: 'Field "subject" is required' },
		message: 'Field "subject" is required',
		description: 'PUT /bundle/data/9002 → 422.',
		httpCode: '422',
		itemIndex: 3,
	});

describe('withSentence', () => {
	it('a transport error: a new AlbatoApiError with the sentence, its outcome, call, status, httpCode and item kept', () => {
		const original = apiError();
		const told = withSentence(node, original, 'Applied before the failure: step 9001.');
		expect(told).not.toBe(original);
		expect(told).toBeInstanceOf(AlbatoApiError);
		expect(told).toBeInstanceOf(NodeApiError);
		expect(told.message).toBe('Field "subject" is required');
		expect(told.description).toBe(
			'PUT /bundle/data/9002 → 422. Applied before the failure: step 9001.',
		);
		expect(told.context.itemIndex).toBe(3);
		const api = told as AlbatoApiError;
		expect([api.outcome, api.status, api.httpCode, api.call]).toEqual([
			'refused',
			422,
			'422',
			{ method: 'PUT', path: '/bundle/data/9002' },
		]);
		expect(original.description).toBe('PUT /bundle/data/9002 → 422.');
	});

	it('a NodeOperationError: a new one, its message and item kept, the original unchanged', () => {
		const original = new NodeOperationError(node, 'Step 9 is not part of installation 5001', {
			itemIndex: 2,
			description: 'Nothing was changed.',
		});
		const told = withSentence(node, original, 'Also: it is left paused.', 0);
		expect(told).not.toBe(original);
		expect(told).toBeInstanceOf(NodeOperationError);
		expect(told.message).toBe('Step 9 is not part of installation 5001');
		expect(told.description).toBe('Nothing was changed. Also: it is left paused.');
		expect(told.context.itemIndex).toBe(2);
		expect(original.description).toBe('Nothing was changed.');
	});

	it('a plain error: a NodeOperationError at the given item, the sentence as its description', () => {
		const told = withSentence(node, new Error('boom'), 'Items 1, 2 had already completed.', 4);
		expect(told).toBeInstanceOf(NodeOperationError);
		expect(told.message).toBe('boom');
		expect(told.description).toBe('Items 1, 2 had already completed.');
		expect(told.context.itemIndex).toBe(4);
	});
});
