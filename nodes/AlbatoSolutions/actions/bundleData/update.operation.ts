import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { idParameter, toId } from '../../helpers/params';
import { sameId } from '../../helpers/values';
import type { AlbatoClient } from '../../transport';
import { bundleSelect, installationLocator } from '../common.descriptions';
import { ACTIVE, bundlesOf, getInstallation, PAUSED, setStatus, statusOf, stepsOf } from '../installation/installationApi';
import type { OperationResult } from '../types';
import { updateStepData } from './bundleDataApi';
import { fieldValuesParameter } from './fieldValues';
import { mapperOrJson } from '../../helpers/mapperDescription';

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
			description: 'Field code → new value, e.g. {"subject": "Welcome"}. Bundle Data → Get Many shows the codes.',
		},
	}),
	{
		displayName: 'If Installation Is Active',
		name: 'ifActive',
		type: 'options',
		default: 'fail',
		description: 'Field values can change only while the installation is paused',
		options: [
			{ name: 'Fail', value: 'fail', description: 'Change nothing and report that the installation must be paused first' },
			{
				name: 'Pause, Update, Then Start Again',
				value: 'pauseAndResume',
				description: 'One pause before and one start after all items for the same installation, even if an update fails',
			},
		],
	},
];

interface Job {
	itemIndex: number;
	installationId: number;
	stepId: number;
	bundleId: number;
	data: IDataObject;
	pauseAndResume: boolean;
}

/**
 * PUT /bundle/data/{stepId} for each item. With "Pause, Update, Then Start Again", the items are grouped
 * per installation: one read, one PAUSE, the updates in item order, and one PLAY in `finally`, so the
 * installation always ends in the status it had.
 */
export async function executeBatch(this: IExecuteFunctions, client: AlbatoClient, itemIndexes: number[]) {
	const results = new Map<number, OperationResult | Error>();
	const groups = new Map<string, Job[]>();
	for (const itemIndex of itemIndexes) {
		try {
			const job = readJob(this, itemIndex);
			const key = job.pauseAndResume ? `guarded:${job.installationId}` : `direct:${itemIndex}`;
			const group = groups.get(key);
			if (group) group.push(job);
			else groups.set(key, [job]);
		} catch (error) {
			results.set(itemIndex, error as Error);
		}
	}
	for (const jobs of groups.values()) {
		if (jobs[0].pauseAndResume) await updateGuarded(this, client, jobs, results);
		else await runUpdates(client, jobs, results);
	}
	return results;
}

function readJob(ctx: IExecuteFunctions, itemIndex: number): Job {
	return {
		itemIndex,
		installationId: idParameter(ctx, 'installationId', 'Installation', itemIndex),
		bundleId: toId(ctx, ctx.getNodeParameter('bundleId', itemIndex, ''), 'Automation (Bundle)', itemIndex),
		stepId: toId(ctx, ctx.getNodeParameter('stepId', itemIndex, ''), 'Step', itemIndex),
		data: fieldValuesParameter(ctx, itemIndex),
		pauseAndResume: ctx.getNodeParameter('ifActive', itemIndex, 'fail') === 'pauseAndResume',
	};
}

async function updateGuarded(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	jobs: Job[],
	results: Map<number, OperationResult | Error>,
) {
	const { installationId } = jobs[0];
	const first = jobs[0].itemIndex;
	let wasActive: boolean;
	let finalStatus: number | undefined;
	try {
		const installation = await getInstallation(client, installationId, { withBundles: true, itemIndex: first });
		for (const job of jobs) {
			// A step of another installation would be refused only after the pause; catch it first.
			const bundle = bundlesOf(installation).find((candidate) => sameId(candidate.id, job.bundleId));
			if (!bundle || !stepsOf(bundle).some((step) => sameId(step.id, job.stepId))) {
				results.set(
					job.itemIndex,
					new NodeOperationError(ctx.getNode(), `Step ${job.stepId} of automation ${job.bundleId} is not part of installation ${installationId}`, {
						itemIndex: job.itemIndex,
						description: 'Nothing was changed. Pick the automation and step again for this installation.',
					}),
				);
			}
		}
		jobs = jobs.filter((job) => !results.has(job.itemIndex));
		if (jobs.length === 0) return;
		finalStatus = statusOf(installation);
		wasActive = finalStatus === ACTIVE;
		if (wasActive) await setStatus(client, installationId, 'PAUSE', first);
	} catch (error) {
		for (const job of jobs) if (!results.has(job.itemIndex)) results.set(job.itemIndex, error as Error);
		return;
	}
	if (wasActive) finalStatus = PAUSED;
	try {
		await runUpdates(client, jobs, results);
	} finally {
		if (wasActive) {
			try {
				finalStatus = statusOf(await setStatus(client, installationId, 'PLAY', first)) ?? ACTIVE;
			} catch (error) {
				const restartFailed = new NodeApiError(ctx.getNode(), { message: (error as Error).message }, {
					message: `Installation ${installationId} was paused for the update and could not be started again`,
					description: `${(error as Error).message}. Start it with Installation → Start.`,
					itemIndex: first,
				});
				for (const job of jobs) results.set(job.itemIndex, restartFailed);
			}
		}
	}
	// The final status is known only now; give it to every successful result of the group.
	for (const job of jobs) {
		const result = results.get(job.itemIndex);
		if (result && !(result instanceof Error)) Object.assign(result, { pausedForUpdate: wasActive, installationStatus: finalStatus });
	}
}

async function runUpdates(
	client: AlbatoClient,
	jobs: Job[],
	results: Map<number, OperationResult | Error>,
) {
	for (const job of jobs) {
		try {
			const response = await updateStepData(client, job.stepId, job.data, job.itemIndex);
			results.set(job.itemIndex, {
				...response,
				id: response.id ?? job.stepId,
				bundleId: job.bundleId,
				installationId: job.installationId,
				updated: job.data,
			});
		} catch (error) {
			results.set(job.itemIndex, error as Error);
		}
	}
}
