/**
 * Bundle Data → Update in Preview: per installation one read (its status and automations), per
 * automation one read of its field values; each item is checked as the service would check it (a
 * step of this installation, known field codes, paused unless the node may pause it) and answered
 * with the output a real run gives. Nothing is paused, put or started.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bundleData } from '../../../shared/api/bundleData';
import { getInstallation } from '../../../shared/api/installation';
import { bundlesOf, stepsOf } from '../../../shared/readers/bundles';
import { ACTIVE, fieldsOf, sameId, statusOf } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import {
	fail,
	type FieldUpdateBatch,
	newFieldUpdateBatch,
	updatedOutput,
	type UpdateJob,
} from '../pausedUpdate/fieldUpdateBatch';
import type { BatchPlan } from '../types';
import { readJobs, unitsOf } from './updateUnits';

/** Preview reads per installation, whatever If Installation Is Active says. */
export async function previewPlan(
	this: IExecuteFunctions,
	client: AlbatoClient,
	itemIndexes: number[],
): Promise<BatchPlan> {
	const { jobs, failed } = readJobs(this, itemIndexes);
	const run = newFieldUpdateBatch(this, client, this.continueOnFail());
	const byInstallation = (job: UpdateJob) => String(job.installationId);
	return { units: unitsOf(run, jobs, byInstallation, previewUpdates), failed };
}

/** The items of one installation: one read of it, then each item checked. */
async function previewUpdates(run: FieldUpdateBatch, jobs: UpdateJob[]): Promise<void> {
	const { installationId, itemIndex } = jobs[0];
	let installation: IDataObject;
	try {
		installation = await getInstallation(run.client, installationId, {
			withBundles: true,
			itemIndex,
		});
	} catch (error) {
		for (const job of jobs) fail(run, job, error);
		return;
	}
	const records = new Map<number, IDataObject[]>();
	for (const job of jobs) {
		try {
			run.results.set(job.key, await previewUpdate(run, job, installation, records));
		} catch (error) {
			fail(run, job, error);
		}
	}
}

/**
 * One item, as the real run would answer it, or the error the service would give. `records`: the
 * field values read so far, by automation.
 */
async function previewUpdate(
	run: FieldUpdateBatch,
	job: UpdateJob,
	installation: IDataObject,
	records: Map<number, IDataObject[]>,
): Promise<IDataObject> {
	const refused = (message: string, description: string) =>
		new NodeOperationError(run.ctx.getNode(), message, { itemIndex: job.itemIndex, description });
	const status = statusOf(installation);
	const bundle = bundlesOf(installation).find((candidate) => sameId(candidate.id, job.bundleId));
	if (!bundle || !stepsOf(bundle).some((step) => sameId(step.id, job.stepId)))
		throw refused(
			`Step ${job.stepId} of automation ${job.bundleId} is not part of installation ${job.installationId}`,
			'Nothing was changed. Pick the automation and step again for this installation.',
		);
	if (status === ACTIVE && !job.pauseAndResume)
		throw refused(
			`Installation ${job.installationId} is active: the service would refuse the update (pause the installation first)`,
			'Preview: nothing was sent. Pause it first, or set If Installation Is Active to "Pause, Update, Then Start Again".',
		);
	if (!records.has(job.bundleId))
		records.set(job.bundleId, await bundleData(run.client, job.bundleId, job.itemIndex));
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
