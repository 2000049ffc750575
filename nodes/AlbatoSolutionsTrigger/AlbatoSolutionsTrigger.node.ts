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
	accessTokenCredential,
	partnerApiCredential,
	endUserIdProperty,
} from '../shared/descriptions/authentication.descriptions';
import { installationLocator, solutionLocator } from '../shared/descriptions/common.descriptions';
import { shownAt, shownFrom } from '../shared/descriptions/versions';
import { credentialTest } from '../shared/methods/credentialTest';
import { listSearch } from '../shared/methods/listSearch';
import { incidentKind } from './incidentPoll';
import { KINDS, poll } from './poll';
import { runKind } from './runPoll';
import { usageKind } from './usagePoll';

/** The Events list: every kind's events, by name. */
const EVENT_OPTIONS: INodePropertyOptions[] = KINDS.flatMap((kind) => kind.options).sort((a, b) =>
	a.name.localeCompare(b.name),
);

/**
 * Installation ID (Run Events): text at version 1, a picker from version 2 (same name and value).
 */
/** The events the Solution filter narrows (installations, runs, automations): all but usage. */
const SOLUTION_EVENTS = EVENT_OPTIONS.map((option) => String(option.value)).filter(
	(event) => !usageKind.events.includes(event),
);

const RUN_INSTALLATION = {
	displayName: 'Installation ID (Run Events)',
	name: 'runInstallationId',
	description:
		"Run and automation events: only runs of this installation's automations. Leave empty to watch every run of the end user.",
	displayOptions: {
		show: { events: [...runKind.events, ...incidentKind.events] },
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
		credentials: [
			{ name: 'albatoSolutionsApi', testedBy: 'albatoSolutionsApiTest', ...accessTokenCredential },
			{ name: 'albatoPartnerApi', testedBy: 'albatoPartnerApiTest', ...partnerApiCredential },
		],
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
			...shownAt(1, [
				{ ...RUN_INSTALLATION, type: 'string', default: '', placeholder: 'e.g. 5001' },
			]),
			...shownFrom(2, [{ ...installationLocator, ...RUN_INSTALLATION, required: false }]),
			{
				displayName: 'Running Low Below',
				name: 'runningLowBelow',
				type: 'string',
				default: '10%',
				placeholder: 'e.g. 10% or 500',
				description:
					"Transactions Running Low: a share of the plan's monthly transactions (e.g. 10%) or a number of transactions left (e.g. 500). A share needs the end user's plan; without one, only a number is judged.",
				displayOptions: { show: { events: [...usageKind.events] } },
			},
			{
				...solutionLocator,
				required: false,
				description:
					'Only installations of this solution, and only runs of their automations. Leave empty to watch everything of the end user.',
				// Usage events are the end user's, not a solution's: shown only where it filters.
				displayOptions: { show: { events: SOLUTION_EVENTS } },
			},
		],
	};

	methods = {
		credentialTest,
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
