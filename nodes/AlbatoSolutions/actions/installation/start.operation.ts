import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { setStatus } from '../../../shared/api/installation';
import { idParameter } from '../params';
import type { AlbatoClient } from '../../../shared/transport/client';
import { installationLocator } from '../../../shared/descriptions/common.descriptions';

export const option = {
	name: 'Start',
	action: 'Start an installation',
	description: 'Start an installation (status 1)',
};

export const description: INodeProperties[] = [installationLocator];

/** PLAY /solution/installation/{id} — the installation becomes active (status 1). */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await setStatus(
		client,
		idParameter(this, 'installationId', 'Installation', itemIndex),
		'PLAY',
		itemIndex,
	);
}
