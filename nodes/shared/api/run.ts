import type { IDataObject } from 'n8n-workflow';

import { RUN_LIST_KEYS } from '../readers/runs';
import { isObject, listOrMap } from '../readers/shapes';
import type { AlbatoClient } from '../transport/client';
import { segment } from '../transport/wire';

/** Runs asked for per page (Yii's `per-page`; 50 is Yii's default maximum). */
export const RUNS_PER_PAGE = 50;

/**
 * GET /bundle/events?expand=steps[&bundleId=N]: the end user's runs (of one automation), every
 * page (paging is not documented: the list reader follows whatever signal comes back).
 */
export async function listRuns(
	client: AlbatoClient,
	{
		bundleId,
		itemIndex,
		enough,
		perPage,
	}: {
		bundleId?: number | string;
		itemIndex?: number;
		/** Ends the read after a page (Run → Get New: the rest is known); default: every page. */
		enough?: (runs: IDataObject[], page: IDataObject[]) => boolean;
		/**
		 * Asks for pages of this many runs (Yii's `per-page`, at most 50 there); default: the
		 * service's.
		 */
		perPage?: number;
	} = {},
): Promise<IDataObject[]> {
	const data = await client.requestList('/bundle/events', {
		itemIndex,
		what: 'runs',
		listKeys: RUN_LIST_KEYS,
		// An automation that never ran answers an empty list; under the map shape that is `{}`.
		emptyObjectIsList: true,
		enough,
		query: {
			expand: 'steps',
			...(bundleId === undefined ? {} : { bundleId: String(bundleId) }),
			...(perPage === undefined ? {} : { 'per-page': String(perPage) }),
		},
	});
	return listOrMap(data, RUN_LIST_KEYS);
}

/** A step detail: the object, or a list holding it alone. */
const stepDetailOf = (data: unknown) =>
	Array.isArray(data) && data.length === 1 ? (data[0] as unknown) : data;

/**
 * GET /bundle/events/steps/{id}: one step of a run, as the service gives it (not documented past
 * "success").
 */
export async function getRunStep(
	client: AlbatoClient,
	stepId: number,
	itemIndex?: number,
): Promise<IDataObject> {
	const data = await client.request('GET', `/bundle/events/steps/${segment(stepId)}`, {
		itemIndex,
		expect: { what: 'step', holds: (answer) => isObject(stepDetailOf(answer)) },
	});
	return stepDetailOf(data) as IDataObject;
}
