/**
 * "Pause, Update, Then Start Again", for Bundle Data → Update and Installation → Ensure: per
 * installation one read, at most one pause, the PUTs and one start, every half-failure settled.
 * docs/reliability.md ("Never left paused") states the rules for users; each is named where it
 * applies:
 * - whoever pauses starts again: `owesPlayAfterPause`, `PausedInstallation.confirmActive`
 *   (pausedInstallation.ts);
 * - a PUT refused as active pauses again: `pausesAgain` (pausedInstallation.ts);
 * - a PAUSE without a verdict is carried on from: `pauseFailureOf` (pausedInstallation.ts);
 * - a lost PLAY is sent once more: `playsAgain` (pausedInstallation.ts);
 * - a failed restart never turns successes into failures: `reportRestart` (restartReport.ts);
 * - stop when the execution says so (without Continue On Fail: the first failure): no further PUT
 *   starts (`UpdateGroup.inStepOrder`, updateGroup.ts), and the installation is still started again;
 * - installations at once within Items in Flight, a step's PUTs in item order: `inStepOrder`.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getInstallation } from '../../../shared/api/installation';
import { ACTIVE, statusOf } from '../../../shared/readers/shapes';
import { notPartOf } from '../../../shared/readers/bundles';
import { PausedInstallation } from './pausedInstallation';
import { reportRestart } from './restartReport';
import { UpdateGroup, type UpdateExecution, type UpdateJob } from './updateGroup';

export { type UpdateExecution, UpdateGroup, type UpdateJob } from './updateGroup';

/** "Fail" mode (or a paused installation the user manages): just the PUTs, each told as it ends. */
export async function updateDirect(execution: UpdateExecution, jobs: UpdateJob[]): Promise<void> {
	const group = new UpdateGroup(execution);
	await group.inStepOrder(jobs, async (job) => {
		try {
			await group.put(job);
			group.tell(job);
		} catch (error) {
			group.fail(job, error);
		}
	});
}

/**
 * "Pause, Update, Then Start Again" for the items of one installation. `known`: the installation with
 * its bundles, when the caller has just read it (Ensure): not read again. A status that changed since
 * is caught by the PUT's refusal (`pausesAgain`). Answers each job's outcome (also told to the
 * execution) and the status this execution last saw (undefined: not known, or nothing was sent).
 */
export async function updateWhilePaused(
	execution: UpdateExecution,
	jobs: UpdateJob[],
	known?: IDataObject,
): Promise<{ group: UpdateGroup; status: number | undefined }> {
	const group = new UpdateGroup(execution);
	const { installationId, itemIndex } = jobs[0];
	let installation: IDataObject;
	try {
		// A list that cannot be read leaves the status unknown: the PUTs tell (a refusal saying
		// "pause first" means active).
		installation =
			known ??
			(await getInstallation(execution.client, installationId, {
				withBundles: true,
				listErrors: 'ignore',
				itemIndex,
			}));
	} catch (error) {
		for (const job of jobs) group.fail(job, error);
		return { group, status: undefined };
	}
	for (const job of jobs) {
		const refused = notPartOf(installation, job);
		if (refused) group.fail(job, refusedItem(execution, job, refused));
	}
	jobs = jobs.filter((job) => !group.ended(job));
	if (jobs.length === 0 || !execution.mayGoOn()) return { group, status: undefined };
	return { group, status: await pauseUpdateStart(group, jobs, installation) };
}

/** One pause (if active), the PUTs, one start if this execution paused; every job then told. */
async function pauseUpdateStart(
	group: UpdateGroup,
	jobs: UpdateJob[],
	installation: IDataObject,
): Promise<number | undefined> {
	const { installationId, itemIndex } = jobs[0];
	const paused = new PausedInstallation(group, installationId, itemIndex);
	paused.status = statusOf(installation);
	if (paused.status === ACTIVE) {
		const pauseError = await paused.pause();
		if (pauseError) for (const job of jobs) group.fail(job, pauseError);
	}
	let restart: Awaited<ReturnType<PausedInstallation['restart']>> = {};
	try {
		if (jobs.some((job) => !group.ended(job)))
			await group.inStepOrder(jobs, (job) => paused.update(job));
	} finally {
		restart = await paused.restart();
	}
	reportRestart(group, jobs, paused, restart);
	group.report();
	return paused.status;
}

/** An update refused before anything is sent, as its item's error. */
export function refusedItem(
	{ ctx }: Pick<UpdateExecution, 'ctx'>,
	{ itemIndex }: UpdateJob,
	{ message, description }: { message: string; description: string },
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
}
