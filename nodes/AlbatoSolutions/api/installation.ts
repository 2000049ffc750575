import type { IDataObject } from 'n8n-workflow';

import { holdsList, idOf, INSTALLATION_LIST_KEYS, installationOf, installationsOf, isObject, listOrMap, sameId, statusOf } from '../helpers/shapes';
import type { AlbatoClient } from '../transport';
import { segment } from '../transport';

/** The expand the service documents, sent literally: its `+` must reach the service unencoded. */
export const EXPAND_BUNDLES = 'expand=app.templates,+bundles.steps';

/** What the list answer must hold: a list (bare, wrapped, or keyed by id). */
const INSTALLATION_LIST = { what: 'list of installations', holds: (data: unknown) => holdsList(data, INSTALLATION_LIST_KEYS) };
/** What a detail, PLAY or PAUSE answer must hold: an installation with its id. */
const AN_INSTALLATION = { what: 'installation', holds: (data: unknown) => installationOf(data).id !== undefined };

/**
 * Every installation of the end user, every page of it. An answer that holds no list (empty body, `data: null`, an
 * object without a list) fails: read as "none", it would make the trigger report every installation
 * removed and Create mistake old installations for new ones.
 */
export async function listInstallations(client: AlbatoClient, itemIndex?: number): Promise<IDataObject[]> {
	return installationsOf(await client.requestList('/solution/installation', { itemIndex, listKeys: INSTALLATION_LIST_KEYS, expect: INSTALLATION_LIST }));
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
		expect: AN_INSTALLATION,
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
	return installationOf(await client.request(method, `/solution/installation/${segment(installationId)}`, { itemIndex, expect: AN_INSTALLATION }));
}

/** POST /solution/{id}/installation — installs once; duplicates and lost answers are installSafely's job. */
export async function createInstallation(client: AlbatoClient, solutionId: number | string, body: IDataObject, itemIndex?: number): Promise<IDataObject> {
	return installationOf(await client.request('POST', `/solution/${segment(solutionId)}/installation`, { body, itemIndex }));
}
