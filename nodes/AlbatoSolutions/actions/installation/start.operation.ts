import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { AlbatoClient } from '../../../shared/transport/client';
import { installationLocator } from '../../../shared/descriptions/common.descriptions';
import { changeStatus, previewStatus, skipOption } from './changeStatus';

export const option = {
	name: 'Start',
	action: 'Start an installation',
	description: 'Start an installation (status 1)',
};

export const effect = 'write';

export const description: INodeProperties[] = [installationLocator, skipOption('Active')];

/** PLAY /solution/installation/{id} — the installation becomes active (status 1). */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await changeStatus(this, client, 'PLAY', itemIndex);
}

export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await previewStatus(this, client, 'PLAY', itemIndex);
}
