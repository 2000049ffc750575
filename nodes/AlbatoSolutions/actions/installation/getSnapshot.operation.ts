import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bundleData } from '../../../shared/api/bundleData';
import { getInstallation } from '../../../shared/api/installation';
import { bundlesOf } from '../../../shared/readers/bundles';
import { installationLocator } from '../../../shared/descriptions/common.descriptions';
import type { AlbatoClient } from '../../../shared/transport/client';
import { idParameter } from '../params';
import { snapshotOf } from './ensureSnapshot';

export const option = {
	name: 'Get Snapshot',
	action: 'Get a snapshot of an installation',
	description:
		"Write an installation down as Ensure's input (solution, title, status, every field value with its type), to restore it later with Ensure",
};

export const effect = 'read';

export const description: INodeProperties[] = [
	{
		...installationLocator,
		description:
			"The end user's installation to write down. The output is exactly what Installation → Ensure takes as a snapshot, to restore it later.",
	},
];

/**
 * GET /solution/installation/{id}?expand=app.templates,+bundles.steps, then GET /bundle/data per
 * automation: the installation as Ensure's input (solution, title, status, templates, and every
 * field value with its type). Give the output to Ensure's Snapshot (JSON) as it is to put it back.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const installationId = idParameter(this, 'installationId', 'Installation', itemIndex);
	const installation = await getInstallation(client, installationId, {
		withBundles: true,
		itemIndex,
	});
	const records = new Map<number, IDataObject[]>();
	for (const bundle of bundlesOf(installation))
		records.set(Number(bundle.id), await bundleData(client, String(bundle.id), itemIndex));
	return snapshotOf(installation, records);
}
