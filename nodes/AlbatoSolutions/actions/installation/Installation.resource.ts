import type { INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../../shared/descriptions/forOperation';
import * as create from './create.operation';
import * as ensure from './ensure.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getSnapshot from './getSnapshot.operation';
import * as pause from './pause.operation';
import * as start from './start.operation';

export const operations = { create, ensure, get, getAll, getSnapshot, pause, start };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['installation'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Install a solution',
				description: 'Install a solution for the end user',
			},
			{
				name: 'Ensure',
				value: 'ensure',
				action: 'Ensure an installation exists in the desired state',
				description:
					'Install the solution if the end user has no installation with this title, change only the field values that differ, then start or pause it. Safe to repeat: never makes a second installation.',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get an installation',
				description: 'Get an installation, optionally with its automations and steps',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many installations',
				description: "List the end user's installations",
			},
			{
				name: 'Get Snapshot',
				value: 'getSnapshot',
				action: 'Get a snapshot of an installation',
				description:
					"Write an installation down as Ensure's input (solution, title, status, every field value with its type), to restore it later with Ensure",
			},
			{
				name: 'Pause',
				value: 'pause',
				action: 'Pause an installation',
				description: 'Pause an installation (status 0)',
			},
			{
				name: 'Start',
				value: 'start',
				action: 'Start an installation',
				description: 'Start an installation (status 1)',
			},
		],
		default: 'getAll',
	},
	...forOperation('installation', 'create', create.description),
	...forOperation('installation', 'ensure', ensure.description),
	...forOperation('installation', 'get', get.description),
	...forOperation('installation', 'getAll', getAll.description),
	...forOperation('installation', 'getSnapshot', getSnapshot.description),
	...forOperation('installation', 'pause', pause.description),
	...forOperation('installation', 'start', start.description),
];
