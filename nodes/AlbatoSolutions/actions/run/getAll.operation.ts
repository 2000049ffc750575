import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getInstallation } from '../../../shared/api/installation';
import { bundlesOf, stepsOf } from '../../../shared/readers/bundles';
import { listRuns } from '../../../shared/api/run';
import {
	bundleSelect,
	filtersCollection,
	installationLocator,
	returnAllOrLimit,
} from '../../../shared/descriptions/common.descriptions';
import { renamedIn2, shownBefore, versionedName } from '../../../shared/descriptions/versions';
import { runDateMs, runItem } from '../../../shared/readers/runs';
import { sameId } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import { limited, readLimit } from '../list';
import { idParameter, toId } from '../params';
import {
	readDateOffset,
	readSince,
	readStatusFilter,
	runOptionsCollection,
	runStatusFilter,
	type StatusFilter,
} from './runFilters';

export const option = {
	name: 'Get Many',
	action: 'Get many runs',
	description:
		'Runs of the automations of an installation (or of one automation), with their steps',
};

export const effect = 'read';

const runsOf: INodeProperties = {
	displayName: 'Runs Of',
	name: 'runsOf',
	type: 'options',
	default: 'installation',
	options: [
		{
			name: 'Every Automation of the Installation',
			value: 'installation',
			description: 'Reads the installation, then the runs of each of its automations',
		},
		{ name: 'One Automation', value: 'bundle' },
	],
};

export const description: INodeProperties[] = [
	{
		...installationLocator,
		description: 'The installation whose automations ran (and that lists the automations)',
	},
	// Version 1 saved Runs Of as `scope`, then as `runsOf`.
	...renamedIn2(runsOf, 'scope'),
	{ ...bundleSelect, displayOptions: { show: { runsOf: ['bundle'] } } },
	...shownBefore(2, [{ ...bundleSelect, displayOptions: { show: { scope: ['bundle'] } } }]),
	...returnAllOrLimit(),
	filtersCollection([
		{
			displayName: 'Since',
			name: 'since',
			type: 'dateTime',
			default: '',
			description:
				"Only runs created at or after this moment (inclusive). A date without a time zone is in the workflow's time zone.",
		},
		runStatusFilter,
	]),
	runOptionsCollection,
];

/**
 * Runs of one installation (GET /solution/installation/{id} with its automations and steps, then
 * GET /bundle/events?expand=steps&bundleId=N for each) or of one automation (the same two calls).
 * The service has no status or date filter and documents no order: every page is read, then
 * filtered and ordered here (newest first).
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const installationId = idParameter(this, 'installationId', 'Installation', itemIndex);
	const scope = this.getNodeParameter(
		versionedName(this, { 1: 'scope', 2: 'runsOf' }),
		itemIndex,
		'installation',
	) as string;
	const bundleId =
		scope === 'bundle'
			? toId(
					this,
					this.getNodeParameter('bundleId', itemIndex, ''),
					'Automation (Bundle)',
					itemIndex,
				)
			: undefined;
	const limit = readLimit(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const since = readSince(this, filters.since, itemIndex);
	const status = readStatusFilter(this, filters.status, itemIndex);
	const offset = readDateOffset(this, options.dateOffsetMinutes, itemIndex);

	// Read in both scopes: the automations' titles and their steps' titles name each run and its
	// failed step (one automation: one more call, for those names).
	const installation = await getInstallation(client, installationId, {
		withBundles: true,
		withStatus: false,
		itemIndex,
	});
	const bundles = bundlesOf(installation);
	const chosen =
		bundleId === undefined
			? bundles
			: [bundles.find((bundle) => sameId(bundle.id, bundleId)) ?? { id: bundleId }];
	// In partner mode each run names its customer, as Run → Get New and the trigger do.
	const endUserId = client.partner?.endUserId(itemIndex);
	const customer = endUserId === undefined ? {} : { endUserId };
	const runs: IDataObject[] = [];
	for (const bundle of chosen) {
		const titles = new Map(
			stepsOf(bundle).map((step) => [String(step.id), String(step.title ?? '')]),
		);
		for (const run of await listRuns(client, { bundleId: String(bundle.id), itemIndex }))
			runs.push({
				...customer,
				installationId,
				installationTitle: installation.title ?? null,
				bundleTitle: bundle.title ?? null,
				...runItem(run, offset, titles),
			});
	}
	return limited(newestFirst(runs.filter((run) => wanted(run, status, since, offset))), limit);
}

/**
 * Status and Since, inclusive; a run whose date cannot be read is kept (it cannot be shown to be
 * older).
 */
function wanted(run: IDataObject, status: StatusFilter, since: number | undefined, offset: number) {
	if (status !== 'any' && run.outcome !== status) return false;
	if (since === undefined) return true;
	const at = runDateMs(run.dateCreatedAsSent, offset);
	return at === undefined || at >= since;
}

/** Newest first by date, then by id (the service's order is not documented). */
function newestFirst(runs: IDataObject[]): IDataObject[] {
	const at = (run: IDataObject) => Date.parse(String(run.dateCreated)) || 0;
	return runs.sort((a, b) => at(b) - at(a) || Number(b.id ?? 0) - Number(a.id ?? 0));
}
