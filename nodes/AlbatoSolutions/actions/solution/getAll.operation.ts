import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listSolutions } from '../../api/solution';
import { limited, readLimit } from '../../helpers/list';
import type { AlbatoClient } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';

export const description: INodeProperties[] = [...returnAllOrLimit()];

/** GET /solution/apps — the latest published version of each solution. */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const limit = readLimit(this, itemIndex);
	return limited(await listSolutions(client, itemIndex), limit);
}
