import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { setStatus } from '../../../shared/api/installation';
import { idParameter } from '../params';
import type { AlbatoClient } from '../../../shared/transport/client';
import { installationLocator } from '../../../shared/descriptions/common.descriptions';

export const option = {
	name: 'Pause',
	action: 'Pause an installation',
	description: 'Pause an installation (status 0)',
};

export const description: INodeProperties[] = [installationLocator];

/** PAUSE /solution/installation/{id} — the installation is paused (status 0); its field values can then change. */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await setStatus(
		client,
		idParameter(this, 'installationId', 'Installation', itemIndex),
		'PAUSE',
		itemIndex,
	);
}
