import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { solutionTemplates } from '../../../shared/api/solution';
import { idParameter } from '../params';
import type { AlbatoClient } from '../../../shared/transport/client';
import { solutionLocator } from '../../../shared/descriptions/common.descriptions';

export const option = {
	name: 'Get Templates',
	action: 'Get the templates of a solution',
	description: 'Templates (automations) that can be installed',
};

export const effect = 'read';

export const description: INodeProperties[] = [solutionLocator];

/** GET /solution/{id}/templates — one output item per template. */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const solutionId = idParameter(this, 'solutionId', 'Solution', itemIndex);
	return await solutionTemplates(client, solutionId, itemIndex);
}
