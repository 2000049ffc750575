/**
 * Bundle Data → Update in Preview: per installation one read (its status and automations), per
 * automation one read of its field values; each item is checked as the service would check it (a
 * step of this installation, known field codes, paused unless the node may pause it) and answered
 * with the output a real run gives. Nothing is paused, put or started.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bundleData } from '../../../shared/api/bundleData';
import { getInstallation } from '../../../shared/api/installation';
import { notPartOf } from '../../../shared/readers/bundles';
import { ACTIVE, fieldsOf, sameId, statusOf } from '../../../shared/readers/shapes';
import { refusedItem } from '../pausedUpdate/pauseAndResume';
import { updatedOutput, type UpdateJob } from '../pausedUpdate/updateGroup';
import type { BatchPlan, Execution } from '../types';
import { unitsOf } from './updateUnits';

/** Preview reads per installation, whatever If Installation Is Active says. */
export function previewPlan(jobs: UpdateJob[], execution: Execution): BatchPlan {
	const byInstallation = (job: UpdateJob) => String(job.installationId);
	return { units: unitsOf(jobs, byInstallation, (group) => previewUpdates(execution, group)) };
}

/** The items of one installation: one read of it, then each item checked. */
async function previewUpdates(execution: Execution, jobs: UpdateJob[]): Promise<void> {
	const { installationId, itemIndex } = jobs[0];
	let installation: IDataObject;
	try {
		installation = await getInstallation(execution.client, installationId, {
			withBundles: true,
			itemIndex,
		});
	} catch (error) {
		for (const job of jobs) execution.ended(job.itemIndex, error as Error);
		return;
	}
	const records = new Map<number, IDataObject[]>();
	for (const job of jobs) {
		if (!execution.mayGoOn()) return;
		try {
			execution.ended(job.itemIndex, await previewUpdate(execution, job, installation, records));
		} catch (error) {
			execution.ended(job.itemIndex, error as Error);
		}
	}
}

/**
 * One item, as the real run would answer it, or the error the service would give. `records`: the
 * field values read so far, by automation.
 */
async function previewUpdate(
	execution: Execution,
	job: UpdateJob,
	installation: IDataObject,
	records: Map<number, IDataObject[]>,
): Promise<IDataObject> {
	const refused = (message: string, description: string) =>
		new NodeOperationError(execution.ctx.getNode(), message, {
			itemIndex: job.itemIndex,
			description,
		});
	const status = statusOf(installation);
	const outside = notPartOf(installation, job);
	if (outside) throw refusedItem(execution, job, outside);
	if (status === ACTIVE && !job.pauseAndResume)
		throw refused(
			`Installation ${job.installationId} is active: the service would refuse the update (pause the installation first)`,
			'Preview: nothing was sent. Pause it first, or set If Installation Is Active to "Pause, Update, Then Start Again".',
		);
	if (!records.has(job.bundleId))
		records.set(job.bundleId, await bundleData(execution.client, job.bundleId, job.itemIndex));
	const record = records.get(job.bundleId)!.find((candidate) => sameId(candidate.id, job.stepId));
	const known = fieldsOf(record?.data ?? record?.fields).map((field) => field.name);
	const unknown = Object.keys(job.data).filter((code) => !known.includes(code));
	if (unknown.length)
		throw refused(
			`Unknown field code${unknown.length > 1 ? 's' : ''} ${unknown.map((code) => `"${code}"`).join(', ')} in step ${job.stepId}: the service would refuse the update`,
			`Preview: nothing was sent. This step has: ${known.join(', ')}.`,
		);
	return {
		id: job.stepId,
		bundleId: job.bundleId,
		installationId: job.installationId,
		...updatedOutput(job.data, job.labels),
		...(job.pauseAndResume
			? { pausedForUpdate: status === ACTIVE, installationStatus: status ?? null }
			: {}),
	};
}
