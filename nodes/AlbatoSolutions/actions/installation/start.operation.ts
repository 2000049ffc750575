import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { idParameter } from '../../helpers/params';
import type { AlbatoClient } from '../../transport';
import { installationLocator } from '../common.descriptions';
import { setStatus } from './installationApi';

export const description: INodeProperties[] = [installationLocator];

/** PLAY /solution/installation/{id} — the installation becomes active (status 1). */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await setStatus(client, idParameter(this, 'installationId', 'Installation', itemIndex), 'PLAY', itemIndex);
}
