import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getRunStep } from '../../../shared/api/run';
import { renamedIn2, versionedName } from '../../../shared/descriptions/versions';
import { stepItem } from '../../../shared/readers/runs';
import type { AlbatoClient } from '../../../shared/transport/client';
import { toId } from '../params';
import { readDateOffset, runOptionsCollection } from './runFilters';

export const option = {
	name: 'Get Step',
	action: 'Get a run step',
	description: 'The detail of one step of a run',
};

export const effect = 'read';

const runStepId: INodeProperties = {
	displayName: 'Step ID',
	name: 'runStepId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 3944029339',
	description:
		'The ID of one step of a run, as Run → Get Many outputs it (in Steps or Failed Step)',
};

export const description: INodeProperties[] = [
	// Version 1 saved Step ID as `stepId`, then as `runStepId`.
	...renamedIn2(runStepId, 'stepId'),
	runOptionsCollection,
];

/**
 * GET /bundle/events/steps/{id}: the step's detail as the service gives it, its date also as ISO.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const stepId = toId(
		this,
		this.getNodeParameter(versionedName(this, { 1: 'stepId', 2: 'runStepId' }), itemIndex, ''),
		'Step ID',
		itemIndex,
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		dateOffsetMinutes?: unknown;
	};
	const offset = readDateOffset(this, options.dateOffsetMinutes, itemIndex);
	return stepItem(await getRunStep(client, stepId, itemIndex), offset);
}
