import type { INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../../shared/descriptions/forOperation';
import * as getAll from './getAll.operation';
import * as getNew from './getNew.operation';
import * as getStep from './getStep.operation';

export const operations = { getAll, getNew, getStep };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['run'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many runs',
				description:
					'Runs of the automations of an installation (or of one automation), with their steps',
			},
			{
				name: 'Get New',
				value: 'getNew',
				action: 'Get new runs',
				description:
					'Runs that ended since this node last returned runs, each once across executions, per end user',
			},
			{
				name: 'Get Step',
				value: 'getStep',
				action: 'Get a run step',
				description: 'The detail of one step of a run',
			},
		],
		default: 'getAll',
	},
	...forOperation('run', 'getAll', getAll.description),
	...forOperation('run', 'getNew', getNew.description),
	...forOperation('run', 'getStep', getStep.description),
];
