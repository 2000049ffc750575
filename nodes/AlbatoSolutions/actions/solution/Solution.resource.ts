import type { INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../../shared/descriptions/forOperation';
import * as getAll from './getAll.operation';
import * as getConnectionSettings from './getConnectionSettings.operation';
import * as getTemplates from './getTemplates.operation';

export const operations = { getAll, getConnectionSettings, getTemplates };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['solution'] } },
		options: [
			{
				name: 'Get Connection Settings',
				value: 'getConnectionSettings',
				action: 'Get the connection settings of a solution',
				description: 'Steps to fill in before installing, nested levels included',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many solutions',
				description: 'Solutions available to the end user (latest published versions)',
			},
			{
				name: 'Get Templates',
				value: 'getTemplates',
				action: 'Get the templates of a solution',
				description: 'Templates (automations) that can be installed',
			},
		],
		default: 'getAll',
	},
	...forOperation('solution', 'getAll', getAll.description),
	...forOperation('solution', 'getConnectionSettings', getConnectionSettings.description),
	...forOperation('solution', 'getTemplates', getTemplates.description),
];
