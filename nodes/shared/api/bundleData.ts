import type { IDataObject } from 'n8n-workflow';

import { bundleRecordsOf, isObject, withNumericIds } from '../readers/shapes';
import type { AlbatoClient } from '../transport/client';
import { segment } from '../transport/wire';

/**
 * GET /bundle/data?filter[bundleId]= — the field values of every step of one bundle (records as a
 * list, fields as a list).
 */
export async function bundleData(
	client: AlbatoClient,
	bundleId: number | string,
	itemIndex?: number,
): Promise<IDataObject[]> {
	return bundleRecordsOf(
		await client.requestList('/bundle/data', {
			query: { 'filter[bundleId]': bundleId },
			itemIndex,
			what: 'bundle data',
		}),
	);
}

/** GET /bundle/data once per bundle: each bundle's step records, by bundle ID. */
export async function recordsByBundle(
	client: AlbatoClient,
	bundleIds: Iterable<number>,
	itemIndex?: number,
): Promise<Map<number, IDataObject[]>> {
	const records = new Map<number, IDataObject[]>();
	for (const bundleId of new Set(bundleIds))
		records.set(bundleId, await bundleData(client, bundleId, itemIndex));
	return records;
}

/** PUT /bundle/data/{stepId} with `{ data: { fieldCode: value } }`. */
export async function updateStepData(
	client: AlbatoClient,
	stepId: number | string,
	data: IDataObject,
	itemIndex?: number,
): Promise<IDataObject> {
	const result = await client.request<unknown>('PUT', `/bundle/data/${segment(stepId)}`, {
		body: { data },
		itemIndex,
	});
	return isObject(result) ? withNumericIds(result) : {};
}
