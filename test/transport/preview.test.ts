/**
 * Preview's safety net in the transport: a write that an operation forgot to preview is refused
 * before it leaves, naming the call and the item (test/node/fleet/preview.test.ts runs it in n8n).
 */
import { NodeOperationError } from 'n8n-workflow';

import { previewRefusal } from '../../nodes/shared/transport/preview';
import { node } from '../support/node';

describe('previewRefusal', () => {
	const call = {
		method: 'PLAY' as const,
		path: '/solution/installation/5002',
		itemIndex: 2,
		safe: true,
		changesNothing: false,
	};

	it('names the call that was not sent, the item, and how to run it', () => {
		const error = previewRefusal(node, call);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe(
			'Preview is on: PLAY /solution/installation/5002 was not sent, because it may change the service',
		);
		expect(error.context.itemIndex).toBe(2);
		expect(error.description).toBe(
			'Request Options → Preview sends no write. This operation cannot say in advance what it would do; turn Preview off to run it.',
		);
	});
});
