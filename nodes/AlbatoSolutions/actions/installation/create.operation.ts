import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fetchConnectionSettings } from '../../../shared/api/solution';
import { assertComplete } from '../../../shared/readers/connectionSettings';
import { mapperOrJson } from '../../../shared/descriptions/mapper.descriptions';
import { positiveIdOf } from '../../../shared/readers/shapes';
import { describeValue, idParameter, mappedOrJson, textParameter, toObject } from '../params';
import type { AlbatoClient } from '../../../shared/transport/client';
import {
	autoSelectSingleOption,
	optionsCollection,
	solutionLocator,
} from '../../../shared/descriptions/common.descriptions';
import { installSafely } from './installSafely';

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
			displayName: 'Lost Answer Check (Seconds)',
			name: 'lostAnswerCheck',
			type: 'number',
			typeOptions: { minValue: 0.5, maxValue: 120 },
			default: 5,
			description:
				'When the service\'s answer to the install is lost, how long to look for the installation in the end user\'s list (at least 3 reads) before failing with "outcome unknown". It is never installed again blindly. With Refuse Duplicate Title, also how long to watch the list after installing for a twin another worker installed at the same moment (the younger one is paused).',
		},
		{
			displayName: 'Refuse Duplicate Title',
			name: 'refuseDuplicateTitle',
			type: 'boolean',
			default: false,
			description:
				'Whether to fail, installing nothing, when the end user already has an installation with this title',
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

const CONNECTION_SETTINGS = {
	mode: 'connectionSettingsMode',
	mapper: 'connectionSettings',
	json: 'credentialData',
};

interface CreateOptions {
	autoSelectSingle?: boolean;
	lostAnswerCheck?: unknown;
	refuseDuplicateTitle?: boolean;
	settings?: unknown;
}

const LOST_ANSWER_CHECK = { default: 5, min: 0.5, max: 120 };

/** Options → Lost Answer Check in milliseconds. */
function lostAnswerCheck(ctx: IExecuteFunctions, raw: unknown, itemIndex: number): number {
	const seconds = raw === undefined || raw === '' ? LOST_ANSWER_CHECK.default : Number(raw);
	if (
		!Number.isFinite(seconds) ||
		seconds < LOST_ANSWER_CHECK.min ||
		seconds > LOST_ANSWER_CHECK.max
	) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Lost Answer Check must be a number of seconds from ${LOST_ANSWER_CHECK.min} to ${LOST_ANSWER_CHECK.max}, got ${describeValue(raw)}`,
			{
				itemIndex,
			},
		);
	}
	return seconds * 1000;
}

/**
 * POST /solution/{id}/installation, after checking the connection settings against the service's
 * structure. Never retried blindly: when the answer is lost, it looks for what it created (installSafely).
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	// Every parameter is checked before the first request.
	const solutionId = idParameter(this, 'solutionId', 'Solution', itemIndex);
	const title = textParameter(this, 'title', 'Title', itemIndex);
	const choices = mappedOrJson(this, itemIndex, CONNECTION_SETTINGS, 'Connection Settings');
	const templateIds = templateIdsParameter(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as CreateOptions;
	const settings =
		options.settings === undefined
			? undefined
			: toObject(this, options.settings, 'Settings', itemIndex);
	const checkWindow = lostAnswerCheck(this, options.lostAnswerCheck, itemIndex);

	const { resolution } = await fetchConnectionSettings(client, solutionId, choices, {
		autoSelectSingle: options.autoSelectSingle,
		itemIndex,
	});
	assertComplete(this, resolution, itemIndex);

	const body: IDataObject = { credentialData: resolution.credentialData, templateIds, title };
	if (settings && Object.keys(settings).length > 0) body.settings = settings;
	return await installSafely(this, client, {
		solutionId,
		title,
		body,
		itemIndex,
		refuseDuplicateTitle: options.refuseDuplicateTitle === true,
		checkWindow,
	});
}

function templateIdsParameter(ctx: IExecuteFunctions, itemIndex: number): number[] {
	const raw = ctx.getNodeParameter('templateIds', itemIndex, []) as unknown;
	const list =
		typeof raw === 'string'
			? raw.split(',').filter((part) => part.trim() !== '')
			: typeof raw === 'number'
				? [raw]
				: raw;
	const fail = (detail: string) =>
		new NodeOperationError(ctx.getNode(), `Template Names or IDs ${detail}`, {
			itemIndex,
			description: 'Pick at least one template, or give template IDs as a list, e.g. [1011, 1012]',
		});
	if (!Array.isArray(list)) throw fail(`must be a list of template IDs, got ${describeValue(raw)}`);
	if (list.length === 0) throw fail('is empty: choose at least one template');
	const ids = list.map((value: unknown) => {
		const id = positiveIdOf(value);
		if (id === undefined)
			throw fail(`contains ${describeValue(value)}, which is not a template ID`);
		return id;
	});
	return [...new Set(ids)];
}
