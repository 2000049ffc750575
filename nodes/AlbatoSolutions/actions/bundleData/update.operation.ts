import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { idParameter, toId } from '../params';
import { itemsAtOnce } from '../../../shared/transport/limiter';
import { mapLimited } from '../../../shared/transport/mapLimited';
import { readRequestOptions } from '../requestOptions';
import type { AlbatoClient } from '../../../shared/transport/client';
import {
	bundleSelect,
	installationLocator,
} from '../../../shared/descriptions/common.descriptions';
import { fieldLabels, fieldValuesParameter } from './fieldValues';
import {
	newFieldUpdateBatch,
	updateDirect,
	updateGuarded,
	type UpdateJob,
} from '../pausedUpdate/pauseAndResume';
import { mapperOrJson } from '../../../shared/descriptions/mapper.descriptions';
import { type RolloutGuard, startEach } from '../rolloutGuard';
import { previewUpdates } from './updatePreview';

export const option = {
	name: 'Update',
	action: 'Update field values of a step',
	description:
		'Change field values of a step (the installation must be paused, or let the node pause it)',
};

export const description: INodeProperties[] = [
	installationLocator,
	bundleSelect,
	{
		displayName: 'Step Name or ID',
		name: 'stepId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getSteps', loadOptionsDependsOn: ['bundleId', 'endUserId'] },
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
 * executions.
 */
export async function executeBatch(
	this: IExecuteFunctions,
	client: AlbatoClient,
	itemIndexes: number[],
	guard?: RolloutGuard,
) {
	const { concurrency } = readRequestOptions(this);
	// With the rollout guard, each installation (and, in "Fail" mode, each step) is a unit: it runs
	// whole, and the guard is asked before the next one starts.
	const units = guard?.active === true;
	const run = newFieldUpdateBatch(this, client, this.continueOnFail());
	const groups = new Map<string, UpdateJob[]>();
	for (const itemIndex of itemIndexes) {
		try {
			const job = readJob(this, itemIndex);
			// Preview reads per installation, whatever the mode.
			const key =
				job.pauseAndResume || client.preview
					? `guarded:${job.installationId}`
					: units
						? `direct:${job.stepId}`
						: 'direct';
			const group = groups.get(key);
			if (group) group.push(job);
			else groups.set(key, [job]);
		} catch (error) {
			run.results.set(itemIndex, error as Error);
			// Bad input stops the run before anything is sent.
			if (!run.continueOnFail) return run.results;
		}
	}
	// Installations at once, up to Items in Flight; the client keeps all their requests within it
	// too.
	const runGroup = async (jobs: UpdateJob[]) => {
		if (client.preview) await previewUpdates(run, jobs);
		else if (jobs[0].pauseAndResume) await updateGuarded(run, jobs);
		else await updateDirect(run, jobs);
		for (const job of jobs)
			if (run.results.has(job.key))
				guard?.ended(run.results.get(job.key) instanceof Error, job.itemIndex);
		return !run.stopped && (guard?.mayStart() ?? true);
	};
	const all = [...groups.values()];
	const isCanary = (jobs: UpdateJob[]) => jobs.some((job) => guard?.isCanary(job.itemIndex));
	// The units holding canary items first, all to the end; then the others, if the guard allows
	// (with the guard on, as many at once as the client's window: see startEach).
	const each = (entries: UpdateJob[][]) =>
		units
			? startEach(entries, () => Math.min(itemsAtOnce(concurrency), client.window), runGroup)
			: mapLimited(entries, itemsAtOnce(concurrency), runGroup);
	await each(all.filter(isCanary));
	if (!run.stopped && (guard?.mayStart() ?? true))
		await each(all.filter((jobs) => !isCanary(jobs)));
	if (!run.continueOnFail && run.restartFailures.length) throw run.restartFailures[0];
	return run.results;
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
