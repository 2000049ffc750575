import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { AlbatoClient } from '../../../shared/transport/client';
import { installationLocator } from '../../../shared/descriptions/common.descriptions';
import { changeStatus, previewStatus, skipOption } from './changeStatus';

export const option = {
	name: 'Pause',
	action: 'Pause an installation',
	description: 'Pause an installation (status 0)',
};

export const effect = 'write';

export const description: INodeProperties[] = [installationLocator, skipOption('Paused')];

/**
 * PAUSE /solution/installation/{id} — the installation is paused (status 0); its field values can
 * then change.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await changeStatus(this, client, 'PAUSE', itemIndex);
}

export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await previewStatus(this, client, 'PAUSE', itemIndex);
}
