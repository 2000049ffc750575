import type { IDataObject } from 'n8n-workflow';

import {
	ACTIVE,
	INSTALLATION_LIST_KEYS,
	installationOf,
	installationsOf,
	PAUSED,
	sameId,
	statusOf,
} from '../readers/shapes';
import type { AlbatoClient } from '../transport/client';
import { errorSays, outcomeOf } from '../transport/errors';
import { segment } from '../transport/wire';

/** The expand the service documents, sent literally: its `+` must reach the service unencoded. */
const EXPAND_BUNDLES = 'expand=app.templates,+bundles.steps';

/** What a detail, PLAY or PAUSE answer must hold: an installation with its id. */
const AN_INSTALLATION = {
	what: 'installation',
	holds: (data: unknown) => installationOf(data).id !== undefined,
};

/**
 * Every installation of the end user, every page of it. An answer that holds no list fails (see
 * requestList): read as "none", it would make the trigger report every installation removed and
 * Create mistake old installations for new ones.
 */
export async function listInstallations(
	client: AlbatoClient,
	itemIndex?: number,
): Promise<IDataObject[]> {
	return installationsOf(
		await client.requestList('/solution/installation', {
			itemIndex,
			what: 'installations',
			listKeys: INSTALLATION_LIST_KEYS,
		}),
	);
}

/**
 * GET /solution/installation/{id}. A detail that carries no status gets it from the list (one more
 * call, only then), so start, pause and update logic see it; `withStatus: false` skips that.
 */
export async function getInstallation(
	client: AlbatoClient,
	installationId: number | string,
	{
		withBundles = false,
		withStatus = true,
		listErrors = 'throw',
		itemIndex,
		owed,
	}: {
		withBundles?: boolean;
		withStatus?: boolean;
		/** A failed read of the list for the status: fails the call, or leaves the status unknown. */
		listErrors?: 'throw' | 'ignore';
		itemIndex?: number;
		/** Part of an owed call (confirming a PLAY): read even when the execution was cancelled. */
		owed?: boolean;
	} = {},
): Promise<IDataObject> {
	const data = await client.request('GET', `/solution/installation/${segment(installationId)}`, {
		rawQuery: withBundles ? EXPAND_BUNDLES : undefined,
		itemIndex,
		expect: AN_INSTALLATION,
		owed,
	});
	const installation = installationOf(data);
	if (withStatus && statusOf(installation) === undefined) {
		const status = await listedStatus(client, installation.id ?? installationId, itemIndex).catch(
			(error: unknown) => {
				if (listErrors === 'throw') throw error;
				return undefined;
			},
		);
		if (status !== undefined) installation.status = status;
	}
	return installation;
}

async function listedStatus(client: AlbatoClient, installationId: unknown, itemIndex?: number) {
	const listed = await listInstallations(client, itemIndex);
	return statusOf(listed.find((item) => sameId(item.id, installationId)));
}

/** The installation's detail merged over its list item; undefined when it is gone (404). */
export async function detailOrGone(
	client: AlbatoClient,
	item: IDataObject,
	{ withStatus, itemIndex }: { withStatus: boolean; itemIndex?: number },
): Promise<IDataObject | undefined> {
	try {
		return {
			...item,
			...(await getInstallation(client, String(item.id), { withStatus, itemIndex })),
		};
	} catch (error) {
		if (outcomeOf(error) === 'notFound') return undefined;
		throw error as Error;
	}
}

export type StatusCall = 'PLAY' | 'PAUSE';

/**
 * PLAY or PAUSE. The answer should hold the installation; a 2xx without it (an empty body,
 * `{success: true}` alone) is confirmed by reading the installation: reported done when its status
 * is the one asked for, otherwise the unreadable answer's error stands (the call may have been
 * applied).
 */
export async function setStatus(
	client: AlbatoClient,
	installationId: number | string,
	method: StatusCall,
	itemIndex?: number,
	{ owed = false } = {},
): Promise<IDataObject> {
	const path = `/solution/installation/${segment(installationId)}`;
	try {
		const data = await client.request(method, path, { itemIndex, expect: AN_INSTALLATION, owed });
		return installationOf(data);
	} catch (error) {
		return await confirmedStatus(client, installationId, method, error, { itemIndex, owed });
	}
}

/**
 * PLAY or PAUSE failed: an unreadable 2xx counts as done when the installation now has the status
 * asked for; any other failure, or another status, stands.
 */
async function confirmedStatus(
	client: AlbatoClient,
	installationId: number | string,
	method: StatusCall,
	error: unknown,
	options: { itemIndex?: number; owed: boolean },
): Promise<IDataObject> {
	if (!errorSays(error, 'unreadable')) throw error;
	const installation = await getInstallation(client, installationId, options).catch(
		() => undefined,
	);
	if (installation && statusOf(installation) === (method === 'PLAY' ? ACTIVE : PAUSED))
		return installation;
	throw error;
}

/**
 * POST /solution/{id}/installation — installs once; duplicates and lost answers are installSafely's
 * job.
 */
export async function createInstallation(
	client: AlbatoClient,
	solutionId: number | string,
	body: IDataObject,
	itemIndex?: number,
): Promise<IDataObject> {
	return installationOf(
		await client.request('POST', `/solution/${segment(solutionId)}/installation`, {
			body,
			itemIndex,
		}),
	);
}
