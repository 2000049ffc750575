import type { INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../../shared/descriptions/forOperation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export const operations = { getAll, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bundleData'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get field values of automations',
				description:
					'Current field values of the steps of one automation, or of every automation of an installation',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update field values of a step',
				description:
					'Change field values of a step (the installation must be paused, or let the node pause it)',
			},
		],
		default: 'getAll',
	},
	...forOperation('bundleData', 'getAll', getAll.description),
	...forOperation('bundleData', 'update', update.description),
];
