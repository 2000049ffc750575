import type { IDataObject } from 'n8n-workflow';

import { idOf, installationOf, installationsOf, isObject, listOrMap, sameId, statusOf } from '../../helpers/shapes';
import type { AlbatoClient } from '../../transport';
import { segment } from '../../transport';

/** The expand the service documents, sent literally: its `+` must reach the service unencoded. */
export const EXPAND_BUNDLES = 'expand=app.templates,+bundles.steps';

// The readers of the service's shapes live in helpers/shapes.ts; re-exported for the operations and the trigger.
export { ACTIVE, installationOf, PAUSED, solutionIdOf, statusOf } from '../../helpers/shapes';

export async function listInstallations(client: AlbatoClient, itemIndex?: number): Promise<IDataObject[]> {
	return installationsOf(await client.request('GET', '/solution/installation', { itemIndex }));
}

/**
 * GET /solution/installation/{id}. A detail that carries no status gets it from the list (one more
 * call, only then), so start, pause and update logic see it; `withStatus: false` skips that.
 */
export async function getInstallation(
	client: AlbatoClient,
	installationId: number | string,
	{ withBundles = false, withStatus = true, itemIndex }: { withBundles?: boolean; withStatus?: boolean; itemIndex?: number } = {},
): Promise<IDataObject> {
	const data = await client.request('GET', `/solution/installation/${segment(installationId)}`, {
		rawQuery: withBundles ? EXPAND_BUNDLES : undefined,
		itemIndex,
	});
	const installation = installationOf(data);
	if (withStatus && statusOf(installation) === undefined) {
		const listed = (await listInstallations(client, itemIndex)).find((item) => sameId(item.id, installation.id ?? installationId));
		const status = statusOf(listed);
		if (status !== undefined) installation.status = status;
	}
	return installation;
}

/** Bundles of an expanded installation: a map keyed by bundle id (documented) or a list. */
export function bundlesOf(installation: IDataObject): IDataObject[] {
	const bundles = installation.bundles;
	if (Array.isArray(bundles)) return bundles.filter(isObject);
	if (isObject(bundles)) {
		return Object.entries(bundles)
			.filter(([, bundle]) => isObject(bundle))
			.map(([key, bundle]) => ({ ...(bundle as IDataObject), id: idOf((bundle as IDataObject).id) ?? idOf(key) ?? key }));
	}
	return [];
}

/** Steps of an expanded bundle: a list (documented) or a map keyed by step id; ids as numbers. */
export function stepsOf(bundle: IDataObject): IDataObject[] {
	return listOrMap(bundle.steps).map((step) => ({ ...step, id: idOf(step.id) ?? step.id }));
}

export type StatusCall = 'PLAY' | 'PAUSE';

export async function setStatus(
	client: AlbatoClient,
	installationId: number | string,
	method: StatusCall,
	itemIndex?: number,
): Promise<IDataObject> {
	return installationOf(await client.request(method, `/solution/installation/${segment(installationId)}`, { itemIndex }));
}
