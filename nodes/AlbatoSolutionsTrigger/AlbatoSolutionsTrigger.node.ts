import type {
	INodeExecutionData,
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
import { solutionLocator } from '../shared/descriptions/common.descriptions';
import { listSearch } from '../shared/methods/listSearch';
import { poll } from './poll';

export class AlbatoSolutionsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Albato Solutions Trigger',
		name: 'albatoSolutionsTrigger',
		icon: {
			light: 'file:../AlbatoSolutions/albatoSolutions.svg',
			dark: 'file:../AlbatoSolutions/albatoSolutions.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{($parameter["events"] || []).join(", ")}}',
		description:
			"Starts the workflow when an end user's installation is created, started, paused or removed, or one of their automations' runs fails or succeeds",
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
				options: [
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
						description:
							'An installation went from paused to active, or was first seen already active',
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
				],
			},
			{
				displayName: 'Installation ID (Run Events)',
				name: 'runInstallationId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 5001',
				description:
					"Run Failed / Run Succeeded: only runs of this installation's automations. Leave empty to watch every run of the end user.",
				displayOptions: { show: { events: ['runFailed', 'runSucceeded'] } },
			},
			{
				...solutionLocator,
				required: false,
				description:
					'Only installations of this solution. Leave empty to watch all installations of the end user.',
			},
		],
	};

	methods = { listSearch: { searchSolutions: listSearch.searchSolutions } };

	/**
	 * Compares the end user's installations and runs with the baselines in the workflow's static data
	 * and emits each change once (poll.ts). "Fetch Test Event" (manual mode) returns the newest of
	 * each chosen kind instead and leaves the baselines alone.
	 */
	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await poll(this);
	}
}
