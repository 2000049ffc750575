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

/** A field update's target: the step of an automation of an installation. */
interface StepTarget {
	installationId: number;
	bundleId: number;
	stepId: number;
}

/**
 * Why an update of this step would be refused, when the step is not one of this installation's
 * (the service would say so only after a pause): the message and advice; undefined when it is.
 */
export function notPartOf(
	installation: IDataObject,
	{ installationId, bundleId, stepId }: StepTarget,
): { message: string; description: string } | undefined {
	const bundle = bundlesOf(installation).find((candidate) => sameId(candidate.id, bundleId));
	if (bundle && stepsOf(bundle).some((step) => sameId(step.id, stepId))) return undefined;
	return {
		message: `Step ${stepId} of automation ${bundleId} is not part of installation ${installationId}`,
		description: 'Nothing was changed. Pick the automation and step again for this installation.',
	};
}
