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
				action: 'Create a partner connection',
				description: 'Create a credential for a partner connection',
			},
			{
				name: 'Get Schema',
				value: 'getSchema',
				action: 'Get the credential schema of a partner',
				description: 'Fields a credential for the partner needs',
			},
		],
		default: 'getSchema',
	},
	...forOperation('credential', 'create', create.description),
	...forOperation('credential', 'getSchema', getSchema.description),
];
