import type { INodeProperties } from 'n8n-workflow';

import {
	bundleSelect,
	installationLocator,
} from '../../../shared/descriptions/common.descriptions';
import { updateDirect, updateWhilePaused, type UpdateJob } from '../pausedUpdate/pauseAndResume';
import { mapperOrJson } from '../../../shared/descriptions/mapper.descriptions';
import type { BatchPlan, Execution } from '../types';
import { unitsOf } from './updateUnits';

export { previewPlan } from './updatePreview';
export { readUpdateJob as read } from './updateUnits';

export const option = {
	name: 'Update',
	action: 'Update field values of a step',
	description:
		'Change field values of a step (the installation must be paused, or let the node pause it)',
};

export const effect = 'write';

export const description: INodeProperties[] = [
	installationLocator,
	bundleSelect,
	{
		displayName: 'Step Name or ID',
		name: 'stepId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getSteps', loadOptionsDependsOn: ['bundleId'] },
		default: '',
		required: true,
		description:
			'The step of the automation whose fields change. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	...mapperOrJson({
		mode: 'fieldValuesMode',
		mapper: 'fieldMapper',
		displayName: 'Field Values',
		method: 'getFieldValueFields',
		dependsOn: ['bundleId', 'stepId'],
		singular: 'field',
		plural: 'fields',
		addAllFields: false,
		json: {
			displayName: 'Field Values (JSON)',
			name: 'fieldValues',
			type: 'json',
			default: '{}',
			required: true,
			description:
				'Field code → new value, e.g. {"subject": "Welcome"}. Bundle Data → Get Many shows the codes.',
		},
	}),
	{
		displayName: 'If Installation Is Active',
		name: 'ifActive',
		type: 'options',
		default: 'fail',
		description: 'Field values can change only while the installation is paused',
		options: [
			{
				name: 'Fail',
				value: 'fail',
				description: 'Change nothing and report that the installation must be paused first',
			},
			{
				name: 'Pause, Update, Then Start Again',
				value: 'pauseAndResume',
				description:
					'One pause before and one start after all items for the same installation, even if an update fails. Started again only if this execution paused it.',
			},
		],
	},
];

/**
 * PUT /bundle/data/{stepId} for each item. With "Pause, Update, Then Start Again", the items are
 * grouped per installation: one read, one PAUSE, the updates, and one PLAY, so the installation
 * ends in the status it had; pauseAndResume.ts holds the rules for half-failures and overlapping
 * executions. Each installation is a unit the router schedules; so is each step in "Fail" mode
 * under the rollout guard (otherwise all of that mode's items are one unit).
 */
export function plan(jobs: UpdateJob[], execution: Execution): BatchPlan {
	const unitKey = (job: UpdateJob) =>
		job.pauseAndResume
			? `paused:${job.installationId}`
			: execution.guarded
				? `direct:${job.stepId}`
				: 'direct';
	return {
		units: unitsOf(jobs, unitKey, async (group) => {
			if (group[0].pauseAndResume) await updateWhilePaused(execution, group);
			else await updateDirect(execution, group);
		}),
	};
}
