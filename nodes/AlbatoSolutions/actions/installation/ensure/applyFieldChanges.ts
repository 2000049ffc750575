/**
 * Installation → Ensure's field changes, through Bundle Data → Update's pause/update/restore
 * contract (actions/pausedUpdate/pauseAndResume.ts): one PUT per step, an active installation
 * paused once and started again once, whoever pauses starts again, a failed restart reported as
 * "left paused".
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	newFieldUpdateBatch,
	updateGuarded,
	type UpdateJob,
} from '../../pausedUpdate/pauseAndResume';
import type { AlbatoClient } from '../../../../shared/transport/client';
import { withSentence } from '../../withSentence';
import type { FieldChange } from './fieldChanges';

/** The field changes of one installation, as Ensure has just read it with its bundles. */
interface FieldChangesOf {
	installationId: number;
	/** Not read again: the updates start from it. */
	installation: IDataObject;
	changes: FieldChange[];
}

/** Resolves to the installation's status as the updates left it (undefined: not known). */
export async function applyFieldChanges(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	{ installationId, installation, changes }: FieldChangesOf,
	itemIndex: number,
): Promise<number | undefined> {
	const steps = new Map<number, UpdateJob>();
	for (const change of changes) {
		const job = steps.get(change.stepId) ?? {
			itemIndex,
			key: steps.size,
			installationId,
			bundleId: change.bundleId,
			stepId: change.stepId,
			data: {} as IDataObject,
			pauseAndResume: true,
		};
		job.data[change.code] = change.value as IDataObject[string];
		steps.set(change.stepId, job);
	}
	// The first failed step stops the others; the installation is still restored.
	const batch = newFieldUpdateBatch(ctx, client, false);
	const jobs = [...steps.values()];
	const status = await updateGuarded(batch, jobs, installation);
	if (batch.restartFailures.length) throw batch.restartFailures[0];
	const failed = jobs.find((job) => batch.results.get(job.key) instanceof Error);
	if (!failed) return status;
	const error = batch.results.get(failed.key) as Error;
	const applied = jobs.filter((job) => {
		const result = batch.results.get(job.key);
		return result !== undefined && !(result instanceof Error);
	});
	if (!applied.length) throw error;
	const list = applied.map((job) => `step ${job.stepId} (${Object.keys(job.data).join(', ')})`);
	throw withSentence(
		ctx.getNode(),
		error,
		`Applied before the failure: ${list.join('; ')}. Running Ensure again changes only what still differs.`,
		itemIndex,
	);
}
