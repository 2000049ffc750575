import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listInstallations } from '../api/installation';
import { listSolutions } from '../api/solution';
import { ACTIVE, idOf, PAUSED, statusOf } from '../readers/shapes';
import { load } from './load';

/**
 * Entries as `Title (id)`, filtered by the search text (in the name, or the exact id). The service
 * has no search.
 */
function toResults(
	list: IDataObject[],
	filter: string | undefined,
	nameOf: (entry: IDataObject) => string,
): INodeListSearchResult {
	const needle = filter?.trim().toLowerCase();
	const results = list
		.filter((entry) => idOf(entry.id) !== undefined)
		.map((entry) => ({ name: nameOf(entry), value: String(idOf(entry.id)) }))
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
		return await load(this, 'the solutions', async (client) => {
			const solutions = await listSolutions(client);
			return toResults(
				solutions,
				filter,
				(solution) =>
					`${String(solution.title ?? solution.name ?? 'Solution')} (${String(idOf(solution.id))})`,
			);
		});
	},

	/** GET /solution/installation: the end user's installations, with their status. */
	async searchInstallations(
		this: ILoadOptionsFunctions,
		filter?: string,
	): Promise<INodeListSearchResult> {
		return await load(this, 'the installations', async (client) => {
			const installations = await listInstallations(client);
			return toResults(installations, filter, (installation) => {
				const status = statusOf(installation);
				const label = status === ACTIVE ? ', active' : status === PAUSED ? ', paused' : '';
				return `${String(installation.title ?? 'Installation')} (${String(idOf(installation.id))}${label})`;
			});
		});
	},
};
