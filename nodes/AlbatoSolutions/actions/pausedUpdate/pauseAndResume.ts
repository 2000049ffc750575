/**
 * "Pause, Update, Then Start Again", for Bundle Data → Update and Installation → Ensure: per
 * installation one read, at most one pause, the PUTs and one start, every half-failure settled.
 * docs/reliability.md ("Never left paused") states the rules for users; each is named where it
 * applies:
 * - whoever pauses starts again: `owesPlayAfterPause`, `PauseGuard.confirmActive` (pauseGuard.ts);
 * - a PUT refused as active pauses again: `pausesAgain` (pauseGuard.ts);
 * - a PAUSE without a verdict is carried on from: `pauseFailureOf` (pauseGuard.ts);
 * - a lost PLAY is sent once more: `playsAgain` (pauseGuard.ts);
 * - a failed restart never turns successes into failures: `reportRestart` (restartReport.ts);
 * - stop at the first failure: `fail` (fieldUpdateBatch.ts);
 * - installations at once within Items in Flight, a step's PUTs in item order: `inStepOrder`
 *   (fieldUpdateBatch.ts).
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getInstallation } from '../../../shared/api/installation';
import { bundlesOf, stepsOf } from '../../../shared/readers/bundles';
import { ACTIVE, sameId, statusOf } from '../../../shared/readers/shapes';
import { PauseGuard } from './pauseGuard';
import { reportRestart } from './restartReport';
import { fail, type FieldUpdateBatch, inStepOrder, put, type UpdateJob } from './fieldUpdateBatch';

export { type FieldUpdateBatch, newFieldUpdateBatch, type UpdateJob } from './fieldUpdateBatch';

/** "Fail" mode (or a paused installation the user manages): just the PUTs. */
export async function updateDirect(batch: FieldUpdateBatch, jobs: UpdateJob[]) {
	await inStepOrder(batch, jobs, async (job) => {
		try {
			await put(batch, job);
		} catch (error) {
			fail(batch, job, error);
		}
	});
}

/**
 * "Pause, Update, Then Start Again" for the items of one installation. `known`: the installation with
 * its bundles, when the caller has just read it (Ensure): not read again. A status that changed since
 * is caught by the PUT's refusal (`pausesAgain`). Resolves to the status this execution last saw
 * (undefined: not known, or nothing was sent).
 */
export async function updateGuarded(
	batch: FieldUpdateBatch,
	jobs: UpdateJob[],
	known?: IDataObject,
): Promise<number | undefined> {
	const { results } = batch;
	const { installationId } = jobs[0];
	const first = jobs[0].itemIndex;
	let installation: IDataObject;
	try {
		// A list that cannot be read leaves the status unknown: the PUTs tell (a refusal saying
		// "pause first" means active).
		installation =
			known ??
			(await getInstallation(batch.client, installationId, {
				withBundles: true,
				listErrors: 'ignore',
				itemIndex: first,
			}));
	} catch (error) {
		for (const job of jobs) fail(batch, job, error);
		return undefined;
	}
	for (const job of jobs)
		if (!inInstallation(installation, job)) fail(batch, job, notPartOf(batch, job));
	jobs = jobs.filter((job) => !results.has(job.key));
	if (jobs.length === 0 || batch.stopped) return undefined;

	const guard = new PauseGuard(batch, installationId, first);
	guard.status = statusOf(installation);
	if (guard.status === ACTIVE) {
		const pauseError = await guard.pause();
		if (pauseError) for (const job of jobs) fail(batch, job, pauseError);
	}
	let restart: Awaited<ReturnType<PauseGuard['restart']>> = {};
	try {
		if (jobs.some((job) => !results.has(job.key)))
			await inStepOrder(batch, jobs, (job) => guard.update(job));
	} finally {
		restart = await guard.restart();
	}
	reportRestart(batch, jobs, guard, restart);
	return guard.status;
}

/** A step of another installation would be refused only after the pause: caught first. */
function inInstallation(installation: IDataObject, job: UpdateJob): boolean {
	const bundle = bundlesOf(installation).find((candidate) => sameId(candidate.id, job.bundleId));
	return bundle !== undefined && stepsOf(bundle).some((step) => sameId(step.id, job.stepId));
}

function notPartOf(batch: FieldUpdateBatch, job: UpdateJob): NodeOperationError {
	return new NodeOperationError(
		batch.ctx.getNode(),
		`Step ${job.stepId} of automation ${job.bundleId} is not part of installation ${job.installationId}`,
		{
			itemIndex: job.itemIndex,
			description: 'Nothing was changed. Pick the automation and step again for this installation.',
		},
	);
}
