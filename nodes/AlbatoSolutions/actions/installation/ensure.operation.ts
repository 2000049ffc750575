import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	autoSelectSingleOption,
	optionsCollection,
} from '../../../shared/descriptions/common.descriptions';
import { statusOf } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import {
	installBody,
	installFields,
	lostAnswerCheckOption,
	settingsOption,
} from '../safeInstall/installInput';
import { previewDuplicates, reportDuplicates } from '../safeInstall/reportDuplicates';
import { converge } from './ensure/converge';
import { fieldValuesProperties } from './ensure/desiredFields';
import { readEnsureItem } from './ensure/desiredState';
import { fieldChanges } from './ensure/fieldChanges';
import { locate, locateOrInstall } from './ensure/locateOrInstall';
import { previewNew, report } from './ensure/report';
import { SNAPSHOT_EXAMPLE } from './ensure/snapshot';

export const option = {
	name: 'Ensure',
	action: 'Ensure an installation exists in the desired state',
	description:
		'Install the solution if the end user has no installation with this title, change only the field values that differ, then start or pause it. Safe to repeat: never makes a second installation.',
};

export const effect = 'write';

/** Ensure's Title: the same field as Create's, saying that the exact title is Ensure's key. */
const ensureInstallFields = installFields.map((property) =>
	property.name === 'title'
		? {
				...property,
				description:
					"The exact title is how Ensure finds the installation: the end user's installation of this solution with exactly this title (every character counts, e.g. – and -). With no such installation, Ensure installs one. The output names any other installation of the solution the end user has.",
			}
		: property,
);

/** Shown only when the desired state is given parameter by parameter (the default). */
const fromParameters = (property: INodeProperties): INodeProperties => ({
	...property,
	displayOptions: {
		...property.displayOptions,
		show: { ...property.displayOptions?.show, desiredStateMode: ['parameters'] },
	},
});

export const description: INodeProperties[] = [
	{
		displayName: 'Desired State',
		name: 'desiredStateMode',
		type: 'options',
		default: 'parameters',
		description: 'How the desired state is given',
		options: [
			{
				name: 'Define Below',
				value: 'parameters',
				description: 'Solution, title, templates, field values and status, each below',
			},
			{
				name: 'Snapshot (JSON)',
				value: 'snapshot',
				description:
					'All of it in one JSON object, as Installation → Get Snapshot outputs it: restores every field value with its type, and the status',
			},
		],
	},
	{
		displayName: 'Snapshot',
		name: 'snapshot',
		type: 'json',
		default: '',
		required: true,
		displayOptions: { show: { desiredStateMode: ['snapshot'] } },
		description: `The output item of Installation → Get Snapshot, as it is (an expression of the whole item, or its JSON text): ${SNAPSHOT_EXAMPLE}. Unknown keys or wrong types are refused before any request. It may add "connectionSettings" (needed only to install the installation again if it is gone) and "settings".`,
	},
	...[
		...ensureInstallFields,
		...fieldValuesProperties,
		{
			displayName: 'Status',
			name: 'desiredStatus',
			type: 'options',
			default: 'active',
			description: 'The status the installation must end in',
			options: [
				{ name: 'Active', value: 'active', description: 'Start it if it is paused' },
				{
					name: 'Leave as Is',
					value: 'leave',
					description: 'A new installation keeps the status the service gives it',
				},
				{ name: 'Paused', value: 'paused', description: 'Pause it if it is active' },
			],
		} satisfies INodeProperties,
	].map(fromParameters),
	optionsCollection([
		autoSelectSingleOption,
		lostAnswerCheckOption,
		{
			displayName: 'Pause Other Active Copies',
			name: 'pauseDuplicates',
			type: 'boolean',
			default: true,
			description:
				'Whether to pause the other active installations with this solution and title, twins a race left running (they are reported on the error output either way, and never deleted). The oldest one is the one Ensure keeps. Not set: paused (node version 4 on).',
		},
		settingsOption,
	]),
];

/**
 * Converges the end user's installation (end user, solution, title) to the desired state: installs
 * it when missing (installSafely, refusing a second one), changes only the field values that differ
 * (pausing and restarting an active installation around them), then starts or pauses it as asked.
 * Safe to repeat, and to run twice at once: see docs/reliability.md (Installation → Ensure).
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const item = readEnsureItem(this, client, itemIndex);
	const located = await locateOrInstall(item);
	const differences = await fieldChanges(item, located.id);
	const converged = await converge(item, located.id, differences);
	return await report(item, { ...located, ...converged }, reportDuplicates);
}

/**
 * The same reads and checks as a real run, and its output, with the status it would end in; nothing
 * is installed, paused, put or started. An installation it would create has no current values yet.
 */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const item = readEnsureItem(this, client, itemIndex);
	const listed = await locate(item);
	if (listed.id === undefined) {
		// Checked as the real run checks (connection settings); nothing is installed.
		await installBody(this, client, item.desired.input, itemIndex);
		return previewNew(item);
	}
	const { installation, changes } = await fieldChanges(item, listed.id);
	const before = statusOf(installation);
	const status = { before, after: item.desired.status ?? before };
	return await report(
		item,
		{
			id: listed.id,
			created: false,
			listed,
			installation,
			changes,
			status,
		},
		previewDuplicates,
	);
}
