import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getInstallation } from '../../../shared/api/installation';
import { idParameter } from '../params';
import type { AlbatoClient } from '../../../shared/transport/client';
import { installationLocator } from '../../../shared/descriptions/common.descriptions';

export const option = {
	name: 'Get',
	action: 'Get an installation',
	description: 'Get an installation, optionally with its automations and steps',
};

export const effect = 'read';

export const description: INodeProperties[] = [
	installationLocator,
	{
		displayName: 'Include Automations and Steps',
		name: 'includeBundles',
		type: 'boolean',
		default: false,
		description:
			"Whether to include the installation's automations (bundles) with their steps, and the solution's templates",
	},
];

/** GET /solution/installation/{id}[?expand=app.templates,+bundles.steps] */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const installationId = idParameter(this, 'installationId', 'Installation', itemIndex);
	const withBundles = this.getNodeParameter('includeBundles', itemIndex, false) as boolean;
	return await getInstallation(client, installationId, { withBundles, itemIndex });
}
