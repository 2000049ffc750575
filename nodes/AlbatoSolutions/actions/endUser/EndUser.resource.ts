import type { INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../../shared/descriptions/forOperation';
import * as create from './create.operation';
import * as getToken from './getToken.operation';

export const operations = { create, getToken };

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
				name: 'Get Token',
				value: 'getToken',
				action: 'Get the token of an end user',
				description: "Get the end user's token, for nodes that need it",
			},
		],
		default: 'create',
	},
	...forOperation('endUser', 'create', create.description),
	...forOperation('endUser', 'getToken', getToken.description),
];
