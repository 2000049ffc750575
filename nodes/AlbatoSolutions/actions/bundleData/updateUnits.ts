/** What Bundle Data → Update and its Preview share: an item read as a job, and jobs as units. */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { UpdateJob } from '../pausedUpdate/updateGroup';
import { idParameter, toId } from '../params';
import type { Unit } from '../types';
import { fieldLabels, fieldValuesParameter } from './fieldValues';

/** One item's update, read and checked before anything is sent. */
export function readUpdateJob(
	this: IExecuteFunctions,
	_client: unknown,
	itemIndex: number,
): UpdateJob {
	return {
		itemIndex,
		installationId: idParameter(this, 'installationId', 'Installation', itemIndex),
		bundleId: toId(
			this,
			this.getNodeParameter('bundleId', itemIndex, ''),
			'Automation (Bundle)',
			itemIndex,
		),
		stepId: toId(this, this.getNodeParameter('stepId', itemIndex, ''), 'Step', itemIndex),
		data: fieldValuesParameter(this, itemIndex),
		labels: fieldLabels(this, itemIndex),
		pauseAndResume: this.getNodeParameter('ifActive', itemIndex, 'fail') === 'pauseAndResume',
	};
}

/**
 * The jobs grouped by `key`, in the order of each group's first item, each group a unit that runs
 * `task` (which reports each item as it ends).
 */
export function unitsOf(
	jobs: UpdateJob[],
	key: (job: UpdateJob) => string,
	task: (jobs: UpdateJob[]) => Promise<void>,
): Unit[] {
	const groups = new Map<string, UpdateJob[]>();
	for (const job of jobs) {
		const group = groups.get(key(job));
		if (group) group.push(job);
		else groups.set(key(job), [job]);
	}
	return [...groups.values()].map((group) => ({
		itemIndexes: group.map((job) => job.itemIndex),
		execute: async () => await task(group),
	}));
}
