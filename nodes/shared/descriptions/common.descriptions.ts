import type { INodeProperties } from 'n8n-workflow';

import { isObject } from '../readers/shapes';

/** The By ID check of a locator, naming its field with an example of its own (not "An ID"). */
const idPattern = (field: string, example: number) => ({
	type: 'regex' as const,
	properties: {
		regex: '^\\s*\\d+\\s*$',
		errorMessage: `${field} ID is a whole number, e.g. ${example}`,
	},
});

export const solutionLocator: INodeProperties = {
	displayName: 'Solution',
	name: 'solutionId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The solution (only its latest published version is offered)',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchSolutions', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 101',
			validation: [idPattern('Solution', 101)],
		},
	],
};

export const installationLocator: INodeProperties = {
	displayName: 'Installation',
	name: 'installationId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description:
		"One of the end user's installed solutions. In partner mode with End User ID per item (an expression), the list shows the first item's end user's installations; each item acts as its own end user, and another end user's installation is not found for it.",
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchInstallations', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 5001',
			validation: [idPattern('Installation', 5001)],
		},
	],
};

export const bundleSelect: INodeProperties = {
	displayName: 'Automation (Bundle) Name or ID',
	name: 'bundleId',
	type: 'options',
	typeOptions: {
		loadOptionsMethod: 'getBundles',
		loadOptionsDependsOn: ['installationId.value'],
	},
	default: '',
	required: true,
	description:
		'An automation of the installation. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export function returnAllOrLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** Used wherever connection settings are resolved (Get Connection Settings, Create). */
export const autoSelectSingleOption: INodeProperties = {
	displayName: 'Auto-Select Single Values',
	name: 'autoSelectSingle',
	type: 'boolean',
	default: false,
	description:
		"Whether to choose a connection-settings step's value automatically when it offers exactly one, and follow it to the next level",
};

/** The usual "Options" collection of optional settings: the one way this node writes it. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

/** The usual "Filters" collection of a list: each filter narrows what the list returns. */
export function filtersCollection(filters: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: filters,
	};
}

/** Where a partner finds an App ID (Albato's API lists no apps; its docs name it partnerId). */
export const APP_ID_WHERE =
	"Albato's API lists no apps: ask your Albato account manager for the app's ID (Albato calls it partnerId), or read partnerId from a connection the end user already has (Credential → Create Link or Get Link Status)";

/**
 * An app to connect, by its ID: the service's partnerId. Each operation keeps its own parameter
 * `name` (saved workflows hold it); `role` says what the app is there.
 */
export function appIdProperty(
	name: string,
	role = 'The app to connect (HubSpot, Mailchimp…)',
): INodeProperties {
	return {
		displayName: 'App ID',
		name,
		type: 'string',
		default: '',
		required: true,
		placeholder: "e.g. 201 (a number, not the app's name)",
		description: `${role}, by its ID (a number such as 201, not a name such as HubSpot). ${APP_ID_WHERE}. Albato's API calls such an app a partner (partnerId); it is not your own partner account.`,
	};
}

/** An irreversible action's confirmation: its parameter, and what turning it on lets happen. */
export interface Confirmation {
	name: string;
	displayName: string;
	/** A phrase that goes on with "and cannot be undone", e.g. "Deleting a link stops it working". */
	consequence: string;
	/** What follows the consequence when "cannot be undone" would not be the whole truth. */
	afterwards?: string;
}

/** The consequence and what follows it, as one sentence without its full stop. */
export function consequenceOf({ consequence, afterwards }: Confirmation): string {
	return `${consequence}, and ${afterwards ?? 'cannot be undone'}`;
}

/**
 * The switch in front of an irreversible action, as Outlook v2's "Delete Permanently": a boolean,
 * off by default, with one standard description. Its reader is requireConfirmation
 * (actions/params.ts), which fails the item while it is off.
 */
export function confirmProperty(confirmation: Confirmation): INodeProperties {
	return {
		displayName: confirmation.displayName,
		name: confirmation.name,
		type: 'boolean',
		default: false,
		description: `Whether you confirm it: ${consequenceOf(confirmation)}. While off, the item fails and nothing is sent.`,
	};
}

/**
 * The value of a resource locator as a collection or a picker holds it (`{ __rl, mode, value }`),
 * or the value itself: the one locator rule where n8n's `extractValue` does not reach.
 */
export function locatorValue(raw: unknown): unknown {
	return isObject(raw) && raw.__rl === true ? raw.value : raw;
}
