import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { asList, holdsList, isObject } from '../../helpers/values';
import type { AlbatoClient } from '../../transport';
import { segment } from '../../transport';

/** The expand the service documents, sent literally: its `+` must reach the service unencoded. */
export const EXPAND_BUNDLES = 'expand=app.templates,+bundles.steps';

/**
 * Every installation of the end user. An answer that holds no list (empty body, `data: null`, an
 * object without a list) fails: read as "none", it would make the trigger report every installation
 * removed and Create mistake old installations for new ones.
 */
export async function listInstallations(client: AlbatoClient, itemIndex?: number): Promise<IDataObject[]> {
	const data = await client.request('GET', '/solution/installation', { itemIndex });
	if (!holdsList(data)) {
		const message = `The service's list of installations could not be read: it answered ${describeBody(data)} where a list belongs`;
		throw new NodeApiError(client.node, { message } as JsonObject, {
			message,
			description: 'GET /solution/installation answered 2xx without a list. Nothing was changed; try again later.',
			itemIndex,
		});
	}
	return asList(data);
}

function describeBody(data: unknown): string {
	if (data === undefined || data === '') return 'an empty body';
	if (data === null) return 'null';
	return Array.isArray(data) ? 'a list' : isObject(data) ? `an object (keys: ${Object.keys(data).slice(0, 5).join(', ') || 'none'})` : `a ${typeof data}`;
}

export async function getInstallation(
	client: AlbatoClient,
	installationId: number | string,
	{ withBundles = false, itemIndex }: { withBundles?: boolean; itemIndex?: number } = {},
): Promise<IDataObject> {
	const data = await client.request('GET', `/solution/installation/${segment(installationId)}`, {
		rawQuery: withBundles ? EXPAND_BUNDLES : undefined,
		itemIndex,
	});
	return installationOf(data);
}

/** The installation in a response: the object itself, or wrapped as `{ installation }`. */
export function installationOf(data: unknown): IDataObject {
	if (isObject(data) && isObject(data.installation) && data.id === undefined) return data.installation;
	return isObject(data) ? data : { result: data as IDataObject[] };
}

/** Bundles of an expanded installation: a map keyed by bundle id (documented) or a list. */
export function bundlesOf(installation: IDataObject): IDataObject[] {
	const bundles = installation.bundles;
	if (Array.isArray(bundles)) return bundles.filter(isObject);
	if (isObject(bundles)) {
		return Object.entries(bundles)
			.filter(([, bundle]) => isObject(bundle))
			.map(([key, bundle]) => ({ ...(bundle as IDataObject), id: (bundle as IDataObject).id ?? key }));
	}
	return [];
}

export function stepsOf(bundle: IDataObject): IDataObject[] {
	return Array.isArray(bundle.steps) ? bundle.steps.filter(isObject) : isObject(bundle.steps) ? Object.values(bundle.steps).filter(isObject) : [];
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

export const ACTIVE = 1;
export const PAUSED = 0;

/** Status as a number whatever the service sent (1, "1", true…); undefined when absent. */
export function statusOf(installation: IDataObject): number | undefined {
	const status = installation.status;
	if (status === undefined || status === null || status === '') return undefined;
	if (typeof status === 'boolean') return status ? ACTIVE : PAUSED;
	const value = Number(status);
	return Number.isFinite(value) ? value : undefined;
}

/** The solution an installation belongs to: `solutionId`, or the documented `appId`; undefined when neither is sent. */
export function solutionIdOf(installation: IDataObject): string | number | undefined {
	for (const value of [installation.solutionId, installation.appId]) {
		if (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')) return value;
	}
	return undefined;
}
