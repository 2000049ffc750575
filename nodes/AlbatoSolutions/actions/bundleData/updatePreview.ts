/**
 * Bundle Data → Update in Preview: per installation one read (its status and automations), per
 * automation one read of its field values; each item is checked as the service would check it (a
 * step of this installation, known field codes, paused unless the node may pause it) and answered
 * with the output a real run gives, plus `preview: true`. Nothing is paused, put or started.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bundleData } from '../../../shared/api/bundleData';
import { getInstallation } from '../../../shared/api/installation';
import { bundlesOf, stepsOf } from '../../../shared/readers/bundles';
import { ACTIVE, fieldsOf, sameId, statusOf } from '../../../shared/readers/shapes';
import {
	fail,
	type FieldUpdateBatch,
	updatedOutput,
	type UpdateJob,
} from '../pausedUpdate/fieldUpdateBatch';

export async function previewUpdates(run: FieldUpdateBatch, jobs: UpdateJob[]): Promise<void> {
	const { ctx, client } = run;
	const { installationId, itemIndex } = jobs[0];
	let installation: IDataObject;
	try {
		installation = await getInstallation(client, installationId, { withBundles: true, itemIndex });
	} catch (error) {
		for (const job of jobs) fail(run, job, error);
		return;
	}
	const status = statusOf(installation);
	const records = new Map<number, IDataObject[]>();
	for (const job of jobs) {
		const refuse = (message: string, description: string) =>
			fail(
				run,
				job,
				new NodeOperationError(ctx.getNode(), message, { itemIndex: job.itemIndex, description }),
			);
		const bundle = bundlesOf(installation).find((candidate) => sameId(candidate.id, job.bundleId));
		if (!bundle || !stepsOf(bundle).some((step) => sameId(step.id, job.stepId))) {
			refuse(
				`Step ${job.stepId} of automation ${job.bundleId} is not part of installation ${installationId}`,
				'Nothing was changed. Pick the automation and step again for this installation.',
			);
			continue;
		}
		if (status === ACTIVE && !job.pauseAndResume) {
			refuse(
				`Installation ${installationId} is active: the service would refuse the update (pause the installation first)`,
				'Preview: nothing was sent. Pause it first, or set If Installation Is Active to "Pause, Update, Then Start Again".',
			);
			continue;
		}
		try {
			if (!records.has(job.bundleId))
				records.set(job.bundleId, await bundleData(client, job.bundleId, job.itemIndex));
		} catch (error) {
			fail(run, job, error);
			continue;
		}
		const record = records.get(job.bundleId)!.find((candidate) => sameId(candidate.id, job.stepId));
		const known = fieldsOf(record?.data ?? record?.fields).map((field) => field.name);
		const unknown = Object.keys(job.data).filter((code) => !known.includes(code));
		if (unknown.length) {
			refuse(
				`Unknown field code${unknown.length > 1 ? 's' : ''} ${unknown.map((code) => `"${code}"`).join(', ')} in step ${job.stepId}: the service would refuse the update`,
				`Preview: nothing was sent. This step has: ${known.join(', ')}.`,
			);
			continue;
		}
		run.results.set(job.key, {
			id: job.stepId,
			bundleId: job.bundleId,
			installationId: job.installationId,
			...updatedOutput(job.data, job.labels),
			...(job.pauseAndResume
				? { pausedForUpdate: status === ACTIVE, installationStatus: status ?? null }
				: {}),
			preview: true,
		});
	}
}
