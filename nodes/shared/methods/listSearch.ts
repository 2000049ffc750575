import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listInstallations } from '../api/installation';
import { listSolutions } from '../api/solution';
import { ACTIVE, idOf, PAUSED, statusOf } from '../readers/shapes';
import type { AlbatoClient } from '../transport/client';
import { keptWhole, load } from './load';

/**
 * Entries as `Title (id)`, filtered by the search text (in the name, or the exact id). The service
 * has no search.
 */
function toResults(
	list: IDataObject[],
	filter: string | undefined,
	nameOf: (entry: IDataObject) => string,
	description?: string,
): INodeListSearchResult {
	const needle = filter?.trim().toLowerCase();
	const results = list
		.filter((entry) => idOf(entry.id) !== undefined)
		.map((entry) => ({ name: nameOf(entry), value: String(idOf(entry.id)), description }))
		.filter(
			(entry) => !needle || entry.name.toLowerCase().includes(needle) || entry.value === needle,
		);
	return { results };
}

export const listSearch = {
	/** GET /solution/apps: the latest published version of each solution. */
	async searchSolutions(
		this: ILoadOptionsFunctions,
		filter?: string,
	): Promise<INodeListSearchResult> {
		return await load(this, 'the solutions', async (client) =>
			toResults(
				await listSolutions(client),
				filter,
				(solution) =>
					`${String(solution.title ?? solution.name ?? 'Solution')} (${String(idOf(solution.id))})`,
			),
		);
	},

	/**
	 * GET /solution/installation: the end user's installations, with their status. A list result
	 * cannot carry a message (n8n shows an empty list as "No results"), so an end user with no
	 * installation at all gets an error saying so, in the picker's error view.
	 */
	async searchInstallations(
		this: ILoadOptionsFunctions,
		filter?: string,
	): Promise<INodeListSearchResult> {
		return await load(this, 'the installations', async (client) => {
			const installations = await listInstallations(client);
			if (installations.length === 0) throw noInstallations(this, client);
			return toResults(
				installations,
				filter,
				(installation) => {
					const status = statusOf(installation);
					const label = status === ACTIVE ? ', active' : status === PAUSED ? ', paused' : '';
					return `${String(installation.title ?? 'Installation')} (${String(idOf(installation.id))}${label})`;
				},
				whoseList(client),
			);
		});
	},
};

/** The Installation picker's word for an end user with none. */
function noInstallations(ctx: ILoadOptionsFunctions, client: AlbatoClient): NodeOperationError {
	let who = '';
	try {
		who = client.partner ? ` (End User ID: "${client.partner.endUserId(undefined)}")` : '';
	} catch {
		who = '';
	}
	return new NodeOperationError(
		ctx.getNode(),
		keptWhole('This end user has no installations yet'),
		{
			description: `Nothing to pick${who}: install a solution for them first (Installation → Create or Ensure), then open the list again. A value picked earlier, for another end user, stays until you change it.`,
		},
	);
}

/**
 * Whose installations a list shows in partner mode: the End User ID as the editor resolved it, so
 * for an expression the first input item's (each item then acts as its own end user).
 */
function whoseList(client: AlbatoClient): string | undefined {
	if (!client.partner) return undefined;
	return `An installation of end user "${client.partner.endUserId(undefined)}" (for an expression in End User ID: the first item's)`;
}
