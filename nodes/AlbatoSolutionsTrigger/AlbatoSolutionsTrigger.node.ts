import type {
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	authenticationProperty,
	credentials,
	endUserIdProperty,
} from '../shared/descriptions/authentication.descriptions';
import { installationLocator, solutionLocator } from '../shared/descriptions/common.descriptions';
import { listSearch } from '../shared/methods/listSearch';
import { poll } from './poll';

const EVENT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Automation Failing',
		value: 'automationFailing',
		description:
			'An automation started failing: its first failed run after a success (further failures are counted, not reported). The first poll reports the automations failing then.',
	},
	{
		name: 'Automation Recovered',
		value: 'automationRecovered',
		description:
			'An automation that was failing ran without error again: with how long it failed and how many runs failed',
	},
	{
		name: 'Installation Created',
		value: 'installationCreated',
		description: 'A solution was installed (a new installation appeared)',
	},
	{
		name: 'Installation Paused',
		value: 'installationPaused',
		description: 'An installation went from active to paused',
	},
	{
		name: 'Installation Removed',
		value: 'installationRemoved',
		description: 'An installation is no longer listed',
	},
	{
		name: 'Installation Started',
		value: 'installationStarted',
		description: 'An installation went from paused to active, or was first seen already active',
	},
	{
		name: 'Run Failed',
		value: 'runFailed',
		description:
			"An automation's run ended with an error (reported once, when it has ended; not the runs before the first poll)",
	},
	{
		name: 'Run Succeeded',
		value: 'runSucceeded',
		description:
			"An automation's run ended without error (reported once, when it has ended; not the runs before the first poll)",
	},
	{
		name: 'Transactions Running Low',
		value: 'transactionsRunningLow',
		description:
			"The end user's transactions left this month fell below Running Low Below (Partner API credential). Reported once each time it falls; the first poll reports it when low then.",
	},
];

/**
 * Installation ID (Run Events): text at version 1, a picker from version 2 (same name and value).
 */
const RUN_INSTALLATION = {
	displayName: 'Installation ID (Run Events)',
	name: 'runInstallationId',
	description:
		"Run and automation events: only runs of this installation's automations. Leave empty to watch every run of the end user.",
	displayOptions: {
		show: { events: ['runFailed', 'runSucceeded', 'automationFailing', 'automationRecovered'] },
	},
};

/**
 * The canvas subtitle: the chosen events as the Events list names them ("Run Failed, Installation
 * Created"), not their values. A flat lookup object: its text holds no "}}", which would end n8n's
 * expression early.
 */
function eventsSubtitle(options: INodePropertyOptions[]): string {
	const names = JSON.stringify(Object.fromEntries(options.map((o) => [o.value, o.name])));
	return `={{ ($parameter["events"] || []).map(function (event) { return (${names})[event] || event; }).join(", ") }}`;
}

export class AlbatoSolutionsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Albato Solutions Trigger',
		name: 'albatoSolutionsTrigger',
		icon: {
			light: 'file:../AlbatoSolutions/albatoSolutions.svg',
			dark: 'file:../AlbatoSolutions/albatoSolutions.dark.svg',
		},
		group: ['trigger'],
		// 2: Installation ID (Run Events) is a picker; version 1 keeps it as text (saved workflows).
		version: [1, 2],
		defaultVersion: 2,
		subtitle: eventsSubtitle(EVENT_OPTIONS),
		// n8n's node panel heads the merged action list with this text: it reads for both nodes.
		description:
			'Manage the Albato solutions of your customers, and start a workflow when their installations or automation runs change',
		defaults: { name: 'Albato Solutions Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials,
		properties: [
			authenticationProperty,
			{
				...endUserIdProperty,
				placeholder: 'e.g. customer-42 or {{ $vars.albatoEndUserId }}',
				description:
					'Your own ID of the customer whose installations are watched: a fixed ID, or a workflow variable ({{ $vars.… }}). A trigger has no input, so $json is empty here. Each event carries it as endUserId.',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				description:
					'The changes that start the workflow. Each change is reported once, as one item.',
				options: EVENT_OPTIONS,
			},
			{
				...RUN_INSTALLATION,
				type: 'string',
				default: '',
				placeholder: 'e.g. 5001',
				displayOptions: { show: { ...RUN_INSTALLATION.displayOptions.show, '@version': [1] } },
			},
			{
				...installationLocator,
				...RUN_INSTALLATION,
				required: false,
				displayOptions: {
					show: { ...RUN_INSTALLATION.displayOptions.show, '@version': [{ _cnd: { gte: 2 } }] },
				},
			},
			{
				displayName: 'Running Low Below',
				name: 'runningLowBelow',
				type: 'string',
				default: '10%',
				placeholder: 'e.g. 10% or 500',
				description:
					"Transactions Running Low: a share of the plan's monthly transactions (e.g. 10%) or a number of transactions left (e.g. 500). A share needs the end user's plan; without one, only a number is judged.",
				displayOptions: { show: { events: ['transactionsRunningLow'] } },
			},
			{
				...solutionLocator,
				required: false,
				description:
					'Only installations of this solution, and only runs of their automations. Leave empty to watch everything of the end user.',
			},
		],
	};

	methods = {
		listSearch: {
			searchSolutions: listSearch.searchSolutions,
			searchInstallations: listSearch.searchInstallations,
		},
	};

	/**
	 * Compares the end user's installations and runs with the baselines in the workflow's static data
	 * and emits each change once (poll.ts). "Fetch Test Event" (manual mode) returns the newest of
	 * each chosen kind instead and leaves the baselines alone.
	 */
	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await poll(this);
	}
}
