import type { INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../../shared/descriptions/forOperation';
import * as create from './create.operation';
import * as getSchema from './getSchema.operation';

export const operations = { create, getSchema };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['credential'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a connection to an app',
				description: "Create the end user's connection to an app, from the fields it needs",
			},
			{
				name: 'Get Schema',
				value: 'getSchema',
				action: 'Get the connection fields of an app',
				description: 'The fields a connection to the app needs',
			},
		],
		default: 'getSchema',
	},
	...forOperation('credential', 'create', create.description),
	...forOperation('credential', 'getSchema', getSchema.description),
];
