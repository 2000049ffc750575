/** The bundles and steps of an installation read with EXPAND_BUNDLES (api/installation.ts). */
import type { IDataObject } from 'n8n-workflow';

import { type FieldEntry, fieldsOf, idOf, isObject, listOrMap, sameId } from './shapes';

/** Bundles of an expanded installation: a map keyed by bundle id (documented) or a list. */
export function bundlesOf(installation: IDataObject): IDataObject[] {
	const bundles = installation.bundles;
	if (Array.isArray(bundles)) return bundles.filter(isObject);
	if (isObject(bundles)) {
		return Object.entries(bundles)
			.filter(([, bundle]) => isObject(bundle))
			.map(([key, bundle]) => ({
				...(bundle as IDataObject),
				id: idOf((bundle as IDataObject).id) ?? idOf(key) ?? key,
			}));
	}
	return [];
}

/** Steps of an expanded bundle: a list (documented) or a map keyed by step id; ids as numbers. */
export function stepsOf(bundle: IDataObject): IDataObject[] {
	return listOrMap(bundle.steps).map((step) => ({ ...step, id: idOf(step.id) ?? step.id }));
}

/** The fields of one step, found in its bundle's data records (bundleRecordsOf); none without one. */
export function stepFieldsOf(records: IDataObject[] | undefined, stepId: unknown): FieldEntry[] {
	return fieldsOf(records?.find((record) => sameId(record.id, stepId))?.data);
}
