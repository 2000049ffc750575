/**
 * Preview's safety net in the transport: a write that an operation forgot to preview is refused
 * before it leaves, naming the call and the item, alone and in n8n (test/node/fleet/preview.test.ts
 * runs every operation in Preview).
 */
import { NodeOperationError } from 'n8n-workflow';

import { forTests } from '../../nodes/AlbatoSolutions/actions';
import { setStatus } from '../../nodes/shared/api/installation';
import type { AlbatoClient } from '../../nodes/shared/transport/client';
import { previewRefusal } from '../../nodes/shared/transport/preview';
import { node } from '../support/node';
import { byId, runNode, useEmulator } from '../support/setup';

const { resources } = forTests;
const ctx = useEmulator();
const PREVIEW = { requestOptions: { preview: true } };

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

describe('in n8n', () => {
	it('an operation that forgets Preview sends nothing: its write is refused, naming the call', async () => {
		const operations = resources.installation as Record<string, unknown>;
		const original = resources.installation.start;
		operations.start = {
			...original,
			preview: async (client: AlbatoClient, itemIndex: number) =>
				await setStatus(client, 5002, 'PLAY', itemIndex),
		};
		try {
			const run = await runNode(ctx.emu, {
				resource: 'installation',
				operation: 'start',
				installationId: byId('id', 5002),
				...PREVIEW,
			});
			expect(run.error?.message).toBe(
				'Preview is on: PLAY /solution/installation/5002 was not sent, because it may change the service',
			);
			expect(run.calls).toEqual([]);
		} finally {
			operations.start = original;
		}
	});
});
