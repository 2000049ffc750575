/**
 * Installation → Ensure's field changes, through Bundle Data → Update's pause/update/restore
 * contract (actions/pausedUpdate/pauseAndResume.ts): one PUT per step, an active installation
 * paused once and started again once, whoever pauses starts again, a failed restart reported as
 * "left paused".
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { updateGuarded } from '../pausedUpdate/pauseAndResume';
import type { UpdateJob, UpdateRun } from '../pausedUpdate/updateRun';
import type { AlbatoClient } from '../../../shared/transport/client';
import { withSentence } from '../withSentence';
import type { FieldChange } from './ensureFields';

/** Resolves to the installation's status as the updates left it (undefined: not known). */
export async function applyFieldChanges(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	installationId: number,
	changes: FieldChange[],
	itemIndex: number,
	/** The installation with its bundles, as Ensure has just read it (not read again). */
	installation?: IDataObject,
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
	const run: UpdateRun = {
		ctx,
		client,
		continueOnFail: false, // the first failed step stops the others; the installation is still restored
		results: new Map(),
		stopped: false,
		restartFailures: [],
	};
	const jobs = [...steps.values()];
	const status = await updateGuarded(run, jobs, installation);
	if (run.restartFailures.length) throw run.restartFailures[0];
	const failed = jobs.find((job) => run.results.get(job.key) instanceof Error);
	if (!failed) return status;
	const error = run.results.get(failed.key) as Error;
	const applied = jobs.filter((job) => {
		const result = run.results.get(job.key);
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
