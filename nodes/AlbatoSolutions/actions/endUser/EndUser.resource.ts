import type { INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../../shared/descriptions/forOperation';
import * as create from './create.operation';
import * as deleteOperation from './delete.operation';
import * as get from './get.operation';
import * as getToken from './getToken.operation';
import * as setPlan from './setPlan.operation';

export const operations = { create, delete: deleteOperation, get, getToken, setPlan };

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
				name: 'Get Token',
				value: 'getToken',
				action: 'Get the token of an end user',
				description: "Get the end user's token, for nodes that need it",
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
];
