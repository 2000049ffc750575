import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { limited, readLimit } from '../../helpers/list';
import { sameId } from '../../helpers/values';
import type { AlbatoClient } from '../../transport';
import { returnAllOrLimit, solutionLocator } from '../common.descriptions';
import { ACTIVE, getInstallation, listInstallations, PAUSED, solutionIdOf, statusOf } from './installationApi';

export const description: INodeProperties[] = [
	...returnAllOrLimit(),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{ ...solutionLocator, required: false, description: 'Only installations of this solution' },
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'any',
				options: [
					{ name: 'Active', value: 'active' },
					{ name: 'Any', value: 'any' },
					{ name: 'Paused', value: 'paused' },
				],
			},
			{
				displayName: 'Title Contains',
				name: 'title',
				type: 'string',
				default: '',
				description: 'Only installations whose title contains this text (case-insensitive)',
			},
		],
	},
];

interface Filters {
	solutionId?: string | { value?: unknown };
	status?: 'any' | 'active' | 'paused';
	title?: string;
}

/** GET /solution/installation, filtered here (the service has no filters). */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as Filters;
	const limit = readLimit(this, itemIndex);
	let list = await listInstallations(client, itemIndex);
	if (filters.title) {
		const needle = filters.title.toLowerCase();
		list = list.filter((installation) => String(installation.title ?? '').toLowerCase().includes(needle));
	}
	const solutionId = String(typeof filters.solutionId === 'object' ? (filters.solutionId.value ?? '') : (filters.solutionId ?? '')).trim();
	if (solutionId) {
		list = list.filter((installation) => sameId(solutionIdOf(installation), solutionId));
	}
	if (filters.status && filters.status !== 'any') {
		const wanted = filters.status === 'active' ? ACTIVE : PAUSED;
		const withStatus: IDataObject[] = [];
		for (const installation of list) {
			// The list may not carry the status; only then is the detail asked for.
			const status = statusOf(installation) ?? statusOf(await getInstallation(client, String(installation.id), { itemIndex }));
			if (status === wanted) withStatus.push(installation);
		}
		list = withStatus;
	}
	return limited(list, limit);
}
