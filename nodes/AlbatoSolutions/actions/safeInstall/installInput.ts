/**
 * What Create and Ensure both need to install a solution: their shared parameters, how to read
 * them, and the installation Preview shows before it exists.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fetchConnectionSettings } from '../../../shared/api/solution';
import {
	resolutionProblems,
	type SavedField,
	unrefreshedChoice,
} from '../../../shared/readers/connectionSettings';
import { mapperOrJson } from '../../../shared/descriptions/mapper.descriptions';
import { positiveIdOf } from '../../../shared/readers/shapes';
import { describeValue, idParameter, numberInRange, textParameter } from '../params';
import { mappedOrJson, toObject } from '../objectParameters';
import type { AlbatoClient } from '../../../shared/transport/client';
import { solutionLocator } from '../../../shared/descriptions/common.descriptions';

/** Solution, Title, Connection Settings and Templates. */
export const installFields: INodeProperties[] = [
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
		// n8n reloads a mapper's fields only on request (reloading on its own value would clear it).
		notice:
			'Choices marked "(opens …)" have further steps, shown with ↳: after choosing one, open the ⋮ menu → Refresh Step List to show them. Connections the end user already has (e.g. made by link) are offered as "Name (connection 8001)"; one made after the list loaded shows after a refresh.',
		// Shown once a solution is picked: before that the mapper has nothing to say about.
		noticeShow: { solutionId: [{ _cnd: { exists: true } }] },
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
		typeOptions: {
			loadOptionsMethod: 'getTemplates',
			loadOptionsDependsOn: ['solutionId.value'],
		},
		default: [],
		required: true,
		description:
			'Templates (automations) to install. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

/** Options → Lost Answer Check. */
export const lostAnswerCheckOption: INodeProperties = {
	displayName: 'Lost Answer Check (Seconds)',
	name: 'lostAnswerCheck',
	type: 'number',
	typeOptions: { minValue: 0.5, maxValue: 120 },
	default: 5,
	description:
		'When the service\'s answer to the install is lost, how long to look for the installation in the end user\'s list (at least 3 reads) before failing with "outcome unknown". It is never installed again blindly. With Refuse Duplicate Title, also how long to watch the list after installing for a twin another worker installed at the same moment (the younger one is paused).',
};

/** Options → Settings (JSON). */
export const settingsOption: INodeProperties = {
	displayName: 'Settings (JSON)',
	name: 'settings',
	type: 'json',
	default: '{}',
	description: 'Extra user settings of the solution, if it has any',
};

const CONNECTION_SETTINGS = {
	mode: 'connectionSettingsMode',
	mapper: 'connectionSettings',
	json: 'credentialData',
};

export interface InstallOptions {
	autoSelectSingle?: boolean;
	lostAnswerCheck?: unknown;
	refuseDuplicateTitle?: boolean;
	settings?: unknown;
}

const LOST_ANSWER_CHECK = { fallback: 5, min: 0.5, max: 120, unit: 'seconds', fromText: true };

/** Options → Lost Answer Check in milliseconds. */
export function lostAnswerCheck(ctx: IExecuteFunctions, raw: unknown, itemIndex: number): number {
	const seconds = numberInRange(
		ctx,
		raw,
		'Options → Lost Answer Check (Seconds)',
		LOST_ANSWER_CHECK,
		itemIndex,
	);
	return seconds * 1000;
}

/** The install's inputs for one item, read and checked before any request. */
export interface InstallInput {
	solutionId: number;
	title: string;
	choices: IDataObject;
	templateIds: number[];
	settings?: IDataObject;
	checkWindow: number;
	options: InstallOptions;
}

export function readInstallInput(ctx: IExecuteFunctions, itemIndex: number): InstallInput {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as InstallOptions;
	return {
		solutionId: idParameter(ctx, 'solutionId', 'Solution', itemIndex),
		title: textParameter(ctx, 'title', 'Title', itemIndex),
		choices: checkedChoices(ctx, itemIndex),
		templateIds: templateIdsParameter(ctx, itemIndex),
		settings:
			options.settings === undefined
				? undefined
				: toObject(ctx, options.settings, 'Settings', itemIndex),
		checkWindow: lostAnswerCheck(ctx, options.lostAnswerCheck, itemIndex),
		options,
	};
}

/**
 * Connection Settings, mapped or JSON. In the mapper, a choice marked as opening further steps
 * whose steps the mapper never showed (no refresh after choosing it) fails before any request.
 */
function checkedChoices(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const choices = mappedOrJson(ctx, itemIndex, CONNECTION_SETTINGS, 'Connection Settings');
	if (ctx.getNodeParameter(CONNECTION_SETTINGS.mode, itemIndex, 'json') !== 'mapper')
		return choices;
	const schema = ctx.getNodeParameter(`${CONNECTION_SETTINGS.mapper}.schema`, itemIndex, []);
	const missing = Array.isArray(schema)
		? unrefreshedChoice(schema as SavedField[], choices)
		: undefined;
	if (missing)
		throw new NodeOperationError(
			ctx.getNode(),
			`Connection Settings: ${missing.step} is "${missing.choice}", which opens further steps (${missing.opens.join(', ')}) that are not filled in`,
			{
				itemIndex,
				description:
					'Nothing was sent. Open the Connection Settings ⋮ menu → Refresh Step List, choose the new steps (shown with ↳), then run again.',
			},
		);
	return choices;
}

/** The install's body, after checking the connection settings against the service's structure. */
export async function installBody(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	input: InstallInput,
	itemIndex: number,
): Promise<IDataObject> {
	const { resolution } = await fetchConnectionSettings(client, input.solutionId, input.choices, {
		autoSelectSingle: input.options.autoSelectSingle,
		itemIndex,
	});
	const problems = resolutionProblems(resolution);
	if (problems.length > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Connection Settings are incomplete or wrong: ${problems[0]}`,
			{ itemIndex, description: `Nothing was installed. ${problems.join('. ')}.` },
		);
	}
	const body: IDataObject = {
		credentialData: resolution.credentialData,
		templateIds: input.templateIds,
		title: input.title,
	};
	if (input.settings && Object.keys(input.settings).length > 0) body.settings = input.settings;
	return body;
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

/** Preview: the installation an install would make, before the service gives it ID and status. */
export function newInstallation(solutionId: number, title: string) {
	return { id: null, title, solutionId, status: null };
}
