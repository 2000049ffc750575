import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { bundleData } from '../../../shared/api/bundleData';
import { getInstallation } from '../../../shared/api/installation';
import { bundlesOf } from '../../../shared/readers/bundles';
import { idParameter, toId } from '../params';
import type { AlbatoClient } from '../../../shared/transport/client';
import {
	bundleSelect,
	installationLocator,
} from '../../../shared/descriptions/common.descriptions';

export const option = {
	name: 'Get Many',
	action: 'Get field values of automations',
	description:
		'Current field values of the steps of one automation, or of every automation of an installation',
};

export const effect = 'read';

export const description: INodeProperties[] = [
	installationLocator,
	{
		displayName: 'Scope',
		name: 'scope',
		type: 'options',
		default: 'installation',
		options: [
			{
				name: 'Every Automation of the Installation',
				value: 'installation',
				description: 'Each record is tagged with its bundle',
			},
			{ name: 'One Automation', value: 'bundle' },
		],
	},
	{ ...bundleSelect, displayOptions: { show: { scope: ['bundle'] } } },
];

/** Field values of one bundle, or of every bundle of an installation (one output item per step). */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const installationId = idParameter(this, 'installationId', 'Installation', itemIndex);
	const scope = this.getNodeParameter('scope', itemIndex, 'installation') as string;
	if (scope === 'bundle') {
		const bundleId = toId(
			this,
			this.getNodeParameter('bundleId', itemIndex, ''),
			'Automation (Bundle)',
			itemIndex,
		);
		return await bundleData(client, bundleId, itemIndex);
	}
	const installation = await getInstallation(client, installationId, {
		withBundles: true,
		withStatus: false,
		itemIndex,
	});
	const records = [];
	for (const bundle of bundlesOf(installation)) {
		for (const record of await bundleData(client, String(bundle.id), itemIndex)) {
			records.push({
				...record,
				bundleId: record.bundleId ?? bundle.id,
				bundleTitle: bundle.title,
				installationId,
			});
		}
	}
	return records;
}
