import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { operationNames, resourceDescriptions } from './actions';
import { subtitleOf } from './actions/subtitle';
import { router } from './actions/router';
import {
	authenticationProperty,
	accessTokenCredential,
	partnerApiCredential,
} from '../shared/descriptions/authentication.descriptions';
import { requestOptionsProperty } from '../shared/descriptions/requestOptions.descriptions';
import { CURRENT_NODE_VERSION, NODE_VERSIONS } from '../shared/descriptions/versions';
import { credentialTest } from '../shared/methods/credentialTest';
import { listSearch } from '../shared/methods/listSearch';
import { loadOptions } from '../shared/methods/loadOptions';
import { resourceMapping } from '../shared/methods/resourceMapping';

const RESOURCE_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Bundle Data',
		value: 'bundleData',
		description: 'Field values of the automations (bundles) of an installation',
	},
	{
		name: 'Credential',
		value: 'credential',
		description: "The end user's connections to apps (HubSpot, Mailchimp…)",
	},
	{
		name: 'End User',
		value: 'endUser',
		description: 'Your customers as Albato end users (Partner API credential)',
	},
	{
		name: 'Installation',
		value: 'installation',
		description: 'A solution installed for the end user',
	},
	{
		name: 'Run',
		value: 'run',
		description: "History of the automations' runs, with their steps and errors",
	},
	{
		name: 'Solution',
		value: 'solution',
		description: 'A packaged set of automations to install',
	},
];

export class AlbatoSolutions implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Albato Solutions',
		name: 'albatoSolutions',
		icon: { light: 'file:albatoSolutions.svg', dark: 'file:albatoSolutions.dark.svg' },
		group: ['transform'],
		version: NODE_VERSIONS,
		defaultVersion: CURRENT_NODE_VERSION,
		subtitle: subtitleOf(RESOURCE_OPTIONS, operationNames),
		description:
			"Manage the Albato solutions of your customers: install, start and pause them, read their runs and change their automations' field values",
		defaults: { name: 'Albato Solutions' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'albatoSolutionsApi', testedBy: 'albatoSolutionsApiTest', ...accessTokenCredential },
			{ name: 'albatoPartnerApi', testedBy: 'albatoPartnerApiTest', ...partnerApiCredential },
		],
		properties: [
			authenticationProperty,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: RESOURCE_OPTIONS,
				default: 'installation',
			},
			...resourceDescriptions,
			requestOptionsProperty,
		],
	};

	methods = { credentialTest, listSearch, loadOptions, resourceMapping };

	/**
	 * The item loop lives in actions/router.ts: dispatch, pairing, continueOnFail, itemIndex on
	 * errors.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
