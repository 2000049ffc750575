import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Call } from './errors';

/**
 * A call that may change the service, asked for while Request Options → Preview is on. Every
 * writing operation computes what it would do instead of calling; this error means one did not,
 * and nothing was sent.
 */
export function previewRefusal(node: INode, { method, path, itemIndex }: Call): NodeOperationError {
	return new NodeOperationError(
		node,
		`Preview is on: ${method} ${path} was not sent, because it may change the service`,
		{
			itemIndex,
			description:
				'Request Options → Preview sends no write. This operation cannot say in advance what it would do; turn Preview off to run it.',
		},
	);
}
