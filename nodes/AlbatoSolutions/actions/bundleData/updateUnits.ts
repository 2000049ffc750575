/** What Bundle Data → Update and its Preview share: the items read as jobs, and jobs as units. */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { FieldUpdateBatch, UpdateJob } from '../pausedUpdate/fieldUpdateBatch';
import { idParameter, toId } from '../params';
import type { ItemResults, Unit } from '../types';
import { fieldLabels, fieldValuesParameter } from './fieldValues';

/**
 * Every item's job, read before anything is sent. Without Continue On Fail the first bad item
 * stops the reading, and no job runs.
 */
export function readJobs(
	ctx: IExecuteFunctions,
	itemIndexes: number[],
): { jobs: UpdateJob[]; failed: ItemResults } {
	const jobs: UpdateJob[] = [];
	const failed: ItemResults = new Map();
	for (const itemIndex of itemIndexes) {
		try {
			jobs.push(readJob(ctx, itemIndex));
		} catch (error) {
			failed.set(itemIndex, error as Error);
			if (!ctx.continueOnFail()) return { jobs: [], failed };
		}
	}
	return { jobs, failed };
}

function readJob(ctx: IExecuteFunctions, itemIndex: number): UpdateJob {
	return {
		itemIndex,
		key: itemIndex,
		installationId: idParameter(ctx, 'installationId', 'Installation', itemIndex),
		bundleId: toId(
			ctx,
			ctx.getNodeParameter('bundleId', itemIndex, ''),
			'Automation (Bundle)',
			itemIndex,
		),
		stepId: toId(ctx, ctx.getNodeParameter('stepId', itemIndex, ''), 'Step', itemIndex),
		data: fieldValuesParameter(ctx, itemIndex),
		labels: fieldLabels(ctx, itemIndex),
		pauseAndResume: ctx.getNodeParameter('ifActive', itemIndex, 'fail') === 'pauseAndResume',
	};
}

/**
 * The jobs grouped by `key`, in the order of each group's first item, each group a unit that runs
 * `task` and answers its items' results.
 */
export function unitsOf(
	batch: FieldUpdateBatch,
	jobs: UpdateJob[],
	key: (job: UpdateJob) => string,
	task: (batch: FieldUpdateBatch, jobs: UpdateJob[]) => Promise<unknown>,
): Unit[] {
	const groups = new Map<string, UpdateJob[]>();
	for (const job of jobs) {
		const group = groups.get(key(job));
		if (group) group.push(job);
		else groups.set(key(job), [job]);
	}
	return [...groups.values()].map((group) => ({
		itemIndexes: group.map((job) => job.itemIndex),
		run: async () => {
			await task(batch, group);
			return new Map(
				group
					.filter((job) => batch.results.has(job.key))
					.map((job) => [job.itemIndex, batch.results.get(job.key)!]),
			);
		},
	}));
}
