import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listInstallations } from '../actions/installation/installationApi';
import { asList } from '../helpers/values';
import { pickerClient } from './client';

function toResults(list: IDataObject[], filter: string | undefined, describe: (entry: IDataObject) => string): INodeListSearchResult {
	const needle = filter?.trim().toLowerCase();
	const results = list
		.filter((entry) => entry.id !== undefined && entry.id !== null && entry.id !== '')
		.map((entry) => ({ name: describe(entry), value: String(entry.id) }))
		.filter((entry) => !needle || entry.name.toLowerCase().includes(needle) || entry.value === needle);
	return { results };
}

export const listSearch = {
	async searchSolutions(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const client = await pickerClient(this);
		const solutions = asList(await client.request('GET', '/solution/apps'));
		return toResults(solutions, filter, (solution) => `${String(solution.title ?? solution.name ?? 'Solution')} (${String(solution.id)})`);
	},

	async searchInstallations(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		const client = await pickerClient(this);
		const installations = await listInstallations(client);
		return toResults(installations, filter, (installation) => {
			const status = installation.status === undefined ? '' : Number(installation.status) === 1 ? ', active' : ', paused';
			return `${String(installation.title ?? 'Installation')} (${String(installation.id)}${status})`;
		});
	},
};
