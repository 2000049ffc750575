import type { INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../../shared/descriptions/forOperation';
import * as create from './create.operation';
import * as deleteOperation from './delete.operation';
import * as get from './get.operation';
import * as getOwnConnection from './getOwnConnection.operation';
import * as getOwnConnectionFields from './getOwnConnectionFields.operation';
import * as getToken from './getToken.operation';
import * as setOwnConnection from './setOwnConnection.operation';
import * as setPlan from './setPlan.operation';
// Billing (issue 31)
import * as addTransactions from './addTransactions.operation';
import * as block from './block.operation';
import * as getPlans from './getPlans.operation';

export const operations = {
	create,
	delete: deleteOperation,
	get,
	getOwnConnection,
	getOwnConnectionFields,
	getToken,
	setOwnConnection,
	setPlan,
	// Billing (issue 31)
	addTransactions,
	block,
	getPlans,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['endUser'] } },
		options: [
			{
				name: 'Add Transactions',
				value: 'addTransactions',
				action: 'Add extra transactions to the plan of an end user',
				description:
					"Top up the end user's billing plan with paid extra transactions (a multiple of 100; needs confirmation)",
			},
			{
				name: 'Block',
				value: 'block',
				action: 'Block an end user',
				description:
					"Block the end user's billing plan: Albato pauses all their integrations and no new ones can start (needs confirmation)",
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Create an end user',
				description: 'Create an Albato end user for one of your customers (End User ID)',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete an end user',
				description:
					'Delete the end user with their installations and tokens (irreversible; needs confirmation)',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get an end user',
				description: "Get the end user's profile: Albato ID, e-mail, language, time zone, plan",
			},
			{
				name: 'Get Own Connection',
				value: 'getOwnConnection',
				action: 'Get the connection of an end user to your system',
				description:
					"The end user's connection to your own app (secrets masked, listed in maskedFields)",
			},
			{
				name: 'Get Own Connection Fields',
				value: 'getOwnConnectionFields',
				action: 'Get the fields of a connection to your system',
				description: 'The fields a connection to your own app takes',
			},
			{
				name: 'Get Plans',
				value: 'getPlans',
				action: 'Get the billing plans',
				description:
					"List your partner account's billing plans with their monthly transactions (End User ID is not used)",
			},
			{
				name: 'Get Token',
				value: 'getToken',
				action: 'Get the token of an end user',
				description: "Get the end user's token, for nodes that need it",
			},
			{
				name: 'Set Own Connection',
				value: 'setOwnConnection',
				action: 'Set the connection of an end user to your system',
				description:
					"Create or update the end user's connection to your own app (one of them at random if there are several). The values sent overwrite the stored ones.",
			},
			{
				name: 'Set Plan',
				value: 'setPlan',
				action: 'Set the billing plan of an end user',
				description: 'Put the end user on one of your billing plans',
			},
		],
		default: 'create',
	},
	...forOperation('endUser', 'create', create.description),
	...forOperation('endUser', 'getToken', getToken.description),
	...forOperation('endUser', 'get', get.description),
	...forOperation('endUser', 'setPlan', setPlan.description),
	...forOperation('endUser', 'delete', deleteOperation.description),
	...forOperation('endUser', 'setOwnConnection', setOwnConnection.description),
	...forOperation('endUser', 'getOwnConnection', getOwnConnection.description),
	...forOperation('endUser', 'getOwnConnectionFields', getOwnConnectionFields.description),
	// Billing (issue 31)
	...forOperation('endUser', 'getPlans', getPlans.description),
	...forOperation('endUser', 'addTransactions', addTransactions.description),
	...forOperation('endUser', 'block', block.description),
];
