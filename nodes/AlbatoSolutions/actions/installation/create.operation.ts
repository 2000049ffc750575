import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { mapperOrJson } from '../../helpers/mapperDescription';
import { describe, idParameter, mappedOrJson, textParameter, toObject } from '../../helpers/params';
import type { AlbatoClient } from '../../transport';
import { lostResponse, segment } from '../../transport';
import { autoSelectSingleOption, optionsCollection, solutionLocator } from '../common.descriptions';
import { assertComplete, fetchConnectionSettings } from '../solution/connectionSettings';
import { installationOf, listInstallations } from './installationApi';

export const description: INodeProperties[] = [
	solutionLocator,
	{
		displayName: 'Title',
		name: 'title',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Acme Corp – CRM sync',
		description: 'Name that identifies this installation, e.g. the customer it is for',
	},
	...mapperOrJson({
		mode: 'connectionSettingsMode',
		mapper: 'connectionSettings',
		displayName: 'Connection Settings',
		method: 'getConnectionSettingsFields',
		dependsOn: ['solutionId.value'],
		singular: 'step',
		plural: 'steps',
		addAllFields: true,
		json: {
			displayName: 'Connection Settings (JSON)',
			name: 'credentialData',
			type: 'json',
			default: '{}',
			required: true,
			description:
				'Step ID → chosen value for every connection-settings step, nested ones included, e.g. {"crm": "hubspot", "hubspot_account": "acc_1"}. Use Solution → Get Connection Settings to see the steps.',
		},
	}),
	{
		displayName: 'Template Names or IDs',
		name: 'templateIds',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getTemplates', loadOptionsDependsOn: ['solutionId.value'] },
		default: [],
		required: true,
		description:
			'Templates (automations) to install. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	optionsCollection([
		autoSelectSingleOption,
		{
			displayName: 'Refuse Duplicate Title',
			name: 'refuseDuplicateTitle',
			type: 'boolean',
			default: false,
			description: 'Whether to fail, installing nothing, when the end user already has an installation with this title',
		},
		{
			displayName: 'Settings (JSON)',
			name: 'settings',
			type: 'json',
			default: '{}',
			description: 'Extra user settings of the solution, if it has any',
		},
	]),
];

const CONNECTION_SETTINGS = { mode: 'connectionSettingsMode', mapper: 'connectionSettings', json: 'credentialData' };

interface CreateOptions {
	autoSelectSingle?: boolean;
	refuseDuplicateTitle?: boolean;
	settings?: unknown;
}

/**
 * POST /solution/{id}/installation, after checking the connection settings against the service's
 * structure. Never retried blindly: when the answer is lost, it looks for what it created.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	// Every parameter is checked before the first request.
	const solutionId = idParameter(this, 'solutionId', 'Solution', itemIndex);
	const title = textParameter(this, 'title', 'Title', itemIndex);
	const choices = mappedOrJson(this, itemIndex, CONNECTION_SETTINGS, 'Connection Settings');
	const templateIds = templateIdsParameter(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as CreateOptions;
	const settings = options.settings === undefined ? undefined : toObject(this, options.settings, 'Settings', itemIndex);

	const { resolution } = await fetchConnectionSettings(client, solutionId, choices, {
		autoSelectSingle: options.autoSelectSingle,
		itemIndex,
	});
	assertComplete(this, resolution, itemIndex);

	// What existed before: tells a lost answer's installation apart from older ones, and finds duplicates.
	const before = await listInstallations(client, itemIndex);
	if (options.refuseDuplicateTitle) {
		const twin = before.find((installation) => installation.title === title);
		if (twin) {
			throw new NodeOperationError(this.getNode(), `An installation titled "${title}" already exists (ID ${String(twin.id)})`, {
				itemIndex,
				description: 'Nothing was installed. Choose another title, or turn off "Refuse Duplicate Title".',
			});
		}
	}
	const body: IDataObject = { credentialData: resolution.credentialData, templateIds, title };
	if (settings && Object.keys(settings).length > 0) body.settings = settings;
	const path = `/solution/${segment(solutionId)}/installation`;

	for (let attempt = 0; ; attempt++) {
		try {
			return installationOf(await client.request('POST', path, { body, itemIndex }));
		} catch (error) {
			const lost = lostResponse(error);
			if (!lost) throw new NodeApiError(this.getNode(), error as JsonObject);
			const known = new Set(before.map((installation) => String(installation.id)));
			// New since the call and the same title: what `appId` means is not documented, so it is not used.
			const created = (await listInstallations(client, itemIndex)).filter(
				(installation) => !known.has(String(installation.id)) && installation.title === title,
			);
			if (created.length > 0) return created[created.length - 1];
			// Not applied: a lost connection is safe to try once more; a timeout may still be applying.
			if (attempt > 0 || lost.timedOut) {
				throw new NodeApiError(this.getNode(), error as JsonObject);
			}
		}
	}
}

function templateIdsParameter(ctx: IExecuteFunctions, itemIndex: number): number[] {
	const raw = ctx.getNodeParameter('templateIds', itemIndex, []) as unknown;
	const list = typeof raw === 'string' ? raw.split(',').filter((part) => part.trim() !== '') : typeof raw === 'number' ? [raw] : raw;
	const fail = (detail: string) =>
		new NodeOperationError(ctx.getNode(), `Template Names or IDs ${detail}`, {
			itemIndex,
			description: 'Pick at least one template, or give template IDs as a list, e.g. [1011, 1012]',
		});
	if (!Array.isArray(list)) throw fail(`must be a list of template IDs, got ${describe(raw)}`);
	if (list.length === 0) throw fail('is empty: choose at least one template');
	const ids = list.map((value: unknown) => {
		const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
		if (!/^\d+$/.test(text) || Number(text) < 1) throw fail(`contains ${describe(value)}, which is not a template ID`);
		return Number(text);
	});
	return [...new Set(ids)];
}
