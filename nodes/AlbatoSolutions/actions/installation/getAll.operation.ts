import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { getInstallation, listInstallations } from '../../api/installation';
import { limited, readLimit } from '../../helpers/list';
import { mapLimited } from '../../helpers/mapLimited';
import { ACTIVE, PAUSED, sameId, solutionIdOf, statusOf } from '../../helpers/shapes';
import type { AlbatoClient } from '../../transport';
import { returnAllOrLimit, solutionLocator } from '../common.descriptions';

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

/** Detail calls in flight at once, when list items lack what a filter needs. */
export const DETAIL_CONCURRENCY = 4;

/**
 * GET /solution/installation, filtered here (the service has no filters). List items may carry only
 * id and title: then the detail of each item lacking the status or solution a filter needs is fetched
 * (at most DETAIL_CONCURRENCY at a time) and merged over the item; an item gone in between (404) is left out.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as Filters;
	const limit = readLimit(this, itemIndex);
	let list = await listInstallations(client, itemIndex);
	if (filters.title) {
		const needle = filters.title.toLowerCase();
		list = list.filter((installation) => String(installation.title ?? '').toLowerCase().includes(needle));
	}
	const solutionId = String(typeof filters.solutionId === 'object' ? (filters.solutionId.value ?? '') : (filters.solutionId ?? '')).trim();
	const wanted = filters.status === 'active' ? ACTIVE : filters.status === 'paused' ? PAUSED : undefined;
	const lacks = (installation: IDataObject) =>
		(solutionId !== '' && solutionIdOf(installation) === undefined) || (wanted !== undefined && statusOf(installation) === undefined);
	const detailed = new Map<IDataObject, IDataObject | undefined>();
	await mapLimited(list.filter(lacks), DETAIL_CONCURRENCY, async (installation) => {
		detailed.set(installation, await detailOf(client, installation, wanted !== undefined, itemIndex));
		return true;
	});
	const complete = list
		.map((installation) => (detailed.has(installation) ? detailed.get(installation) : installation))
		.filter((installation): installation is IDataObject => installation !== undefined);
	return limited(
		complete.filter(
			(installation) =>
				(solutionId === '' || sameId(solutionIdOf(installation), solutionId)) && (wanted === undefined || statusOf(installation) === wanted),
		),
		limit,
	);
}

/** The item with its detail merged in; undefined when the installation is gone (404). */
async function detailOf(client: AlbatoClient, item: IDataObject, withStatus: boolean, itemIndex: number): Promise<IDataObject | undefined> {
	try {
		return { ...item, ...(await getInstallation(client, String(item.id), { withStatus, itemIndex })) };
	} catch (error) {
		if ((error as { httpCode?: string | null }).httpCode === '404') return undefined;
		// The transport's errors are NodeApiErrors already: this keeps their message, hint and status.
		throw new NodeApiError(client.node, error as JsonObject);
	}
}
