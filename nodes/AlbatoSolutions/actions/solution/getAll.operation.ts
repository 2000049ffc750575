import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listSolutions } from '../../../shared/api/solution';
import { limited, readLimit } from '../list';
import type { AlbatoClient } from '../../../shared/transport/client';
import { returnAllOrLimit } from '../../../shared/descriptions/common.descriptions';

export const option = {
	name: 'Get Many',
	action: 'Get many solutions',
	description: 'Solutions available to the end user (latest published versions)',
};

export const effect = 'read';

export const description: INodeProperties[] = [...returnAllOrLimit()];

/** GET /solution/apps — the latest published version of each solution. */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const limit = readLimit(this, itemIndex);
	return limited(await listSolutions(client, itemIndex), limit);
}
