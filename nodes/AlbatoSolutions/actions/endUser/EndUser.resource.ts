import type { INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../../shared/descriptions/forOperation';
import * as create from './create.operation';
import * as getOwnConnection from './getOwnConnection.operation';
import * as getOwnConnectionFields from './getOwnConnectionFields.operation';
import * as getToken from './getToken.operation';
import * as setOwnConnection from './setOwnConnection.operation';

export const operations = {
	create,
	getOwnConnection,
	getOwnConnectionFields,
	getToken,
	setOwnConnection,
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
				name: 'Create',
				value: 'create',
				action: 'Create an end user',
				description: 'Create an Albato end user for one of your customers (End User ID)',
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
					"Create or update the end user's connection to your own app (one of them at random if there are several)",
			},
		],
		default: 'create',
	},
	...forOperation('endUser', 'create', create.description),
	...forOperation('endUser', 'getToken', getToken.description),
	...forOperation('endUser', 'setOwnConnection', setOwnConnection.description),
	...forOperation('endUser', 'getOwnConnection', getOwnConnection.description),
	...forOperation('endUser', 'getOwnConnectionFields', getOwnConnectionFields.description),
];
