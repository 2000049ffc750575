import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { detailOrGone, listInstallations } from '../../../shared/api/installation';
import { READS_AT_ONCE } from '../../../shared/transport/concurrency';
import { limited, readLimit } from '../list';
import { mapLimited } from '../../../shared/transport/mapLimited';
import { describeValue, oneOf, toId } from '../params';
import { ACTIVE, PAUSED, sameId, solutionIdOf, statusOf } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import {
	filtersCollection,
	locatorValue,
	returnAllOrLimit,
	solutionLocator,
} from '../../../shared/descriptions/common.descriptions';

export const option = {
	name: 'Get Many',
	action: 'Get many installations',
	description: "List the end user's installations",
};

export const effect = 'read';

export const description: INodeProperties[] = [
	...returnAllOrLimit(),
	filtersCollection([
		{
			...solutionLocator,
			required: false,
			description: 'Only installations of this solution',
			// n8n checks a collection's fields against the node's top-level values as well: with the
			// By ID check here, a Solution typed as text elsewhere (Get Templates, Create) is reported
			// twice. The filter's value is checked when the node runs.
			modes: solutionLocator.modes!.map((mode) => ({ ...mode, validation: undefined })),
		},
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
	]),
];

interface Filters {
	solutionId?: unknown;
	status?: unknown;
	title?: unknown;
}

/**
 * GET /solution/installation, filtered here (the service has no filters). List items may carry only
 * id and title: then the detail of each item lacking the status or solution a filter needs is
 * fetched (at most READS_AT_ONCE at a time) and merged over the item; an item gone in between
 * (404) is left out.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as Filters;
	const limit = readLimit(this, itemIndex);
	const { solutionId, title, status } = readFilters(this, filters, itemIndex);
	let list = await listInstallations(client, itemIndex);
	if (title) {
		const needle = title.toLowerCase();
		list = list.filter((installation) =>
			String(installation.title ?? '')
				.toLowerCase()
				.includes(needle),
		);
	}
	const wanted = status === 'active' ? ACTIVE : status === 'paused' ? PAUSED : undefined;
	const lacks = (installation: IDataObject) =>
		(solutionId !== undefined && solutionIdOf(installation) === undefined) ||
		(wanted !== undefined && statusOf(installation) === undefined);
	const detailed = new Map<IDataObject, IDataObject | undefined>();
	await mapLimited(list.filter(lacks), READS_AT_ONCE, async (installation) => {
		detailed.set(
			installation,
			await detailOrGone(client, installation, { withStatus: wanted !== undefined, itemIndex }),
		);
		return true;
	});
	const complete = list
		.map((installation) => (detailed.has(installation) ? detailed.get(installation) : installation))
		.filter((installation): installation is IDataObject => installation !== undefined);
	return limited(
		complete.filter(
			(installation) =>
				(solutionId === undefined || sameId(solutionIdOf(installation), solutionId)) &&
				(wanted === undefined || statusOf(installation) === wanted),
		),
		limit,
	);
}

/**
 * The filters, checked before any request: a filter that cannot match would silently give "none",
 * or fail after the read.
 */
function readFilters(ctx: IExecuteFunctions, filters: Filters, itemIndex: number) {
	const solutionValue = locatorValue(filters.solutionId);
	const solutionId =
		solutionValue === undefined ||
		solutionValue === null ||
		(typeof solutionValue === 'string' && solutionValue.trim() === '')
			? undefined
			: toId(ctx, solutionValue, 'Filters → Solution', itemIndex);
	if (
		filters.title !== undefined &&
		typeof filters.title !== 'string' &&
		typeof filters.title !== 'number'
	) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Filters → Title Contains must be text, got ${describeValue(filters.title)}`,
			{ itemIndex },
		);
	}
	const status = oneOf(
		ctx,
		filters.status,
		'Filters → Status',
		{ allowed: ['active', 'paused', 'any'], fallback: 'any' },
		itemIndex,
	);
	return { solutionId, title: String(filters.title ?? ''), status };
}
