/**
 * How Bundle Data → Update runs its items: per installation one read, at most one pause, the PUTs,
 * and one start, with every half-failure settled. The rules (also in the README):
 *
 * 1. Whoever pauses starts again. This execution sends PLAY at the end if and only if it sent a
 *    PAUSE, and it pauses only an installation it saw active (in the read, in the list, or in a PUT
 *    refused with "pause first", confirmed by a fresh read when it had read it paused: a field
 *    error may say "paused" too). So the installation ends as it was before this execution's own
 *    first pause, and an installation paused by someone else is never started by us. Two
 *    overlapping executions: the one that saw it paused (because the other paused it) does not
 *    start it; if the other starts it in the meantime, the refused PUT makes this one pause it
 *    again, and then start it too.
 * 2. A PUT refused because the installation is active again: pause again (one PAUSE shared by the
 *    group's refused PUTs) and send that PUT again, at most MAX_PAUSES times per item.
 * 3. A PAUSE or PLAY whose 2xx answer is unreadable is confirmed by reading the installation
 *    (setStatus). A PAUSE whose answer is lost or still unsettled may have been applied: carry on
 *    (rule 2 covers the case it was not), and start again at the end. A PAUSE refused (4xx) changed
 *    nothing: its items fail, no PLAY. Other PAUSE failures (5xx after retries) fail the items and
 *    still send PLAY.
 * 4. A PLAY whose answer is lost, or unreadable and not confirmed, is sent once more; PLAY is
 *    idempotent. PLAY 404: the installation was removed; nothing is left paused.
 * 5. A failed restart never turns successful updates into failures: they carry `restartError`.
 *    Without Continue On Fail the run then fails with the restart error, after every group has
 *    finished.
 * 6. Without Continue On Fail, the first failed item stops every further PUT of the run (PUTs
 *    already sent finish); every installation paused so far is still started again.
 * 7. Concurrency: groups of different installations run at once, up to Items in Flight; in a group,
 *    PUTs to different steps run at once and PUTs to the same step keep item order. At most Items
 *    in Flight requests are open at any time.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getInstallation, listInstallations } from '../../../shared/api/installation';
import { bundlesOf, stepsOf } from '../../../shared/readers/bundles';
import { ACTIVE, sameId, statusOf } from '../../../shared/readers/shapes';
import { PauseGuard } from './pauseGuard';
import { reportRestart } from './restartReport';
import { fail, inStepOrder, put, type UpdateJob, type UpdateRun } from './updateRun';

export type { UpdateJob, UpdateRun } from './updateRun';

/** "Fail" mode (or a paused installation the user manages): just the PUTs. */
export async function updateDirect(run: UpdateRun, jobs: UpdateJob[]) {
	await inStepOrder(run, jobs, async (job) => {
		try {
			await put(run, job);
		} catch (error) {
			fail(run, job, error);
		}
	});
}

/** Reads the status from the list when the detail has none; undefined when neither tells. */
async function statusFromList(run: UpdateRun, installationId: number, itemIndex: number) {
	try {
		const list = await listInstallations(run.client, itemIndex);
		const entry = list.find((candidate) => sameId(candidate.id, installationId));
		return entry ? statusOf(entry) : undefined;
	} catch {
		return undefined; // the PUTs will tell (a refusal saying "pause first" means active)
	}
}

/**
 * "Pause, Update, Then Start Again" for the items of one installation. `known`: the installation with
 * its bundles, when the caller has just read it (Ensure): not read again. A status that changed since
 * is caught by the PUT's refusal (rule 2). Resolves to the status this execution last saw (undefined:
 * not known, or nothing was sent).
 */
export async function updateGuarded(
	run: UpdateRun,
	jobs: UpdateJob[],
	known?: IDataObject,
): Promise<number | undefined> {
	const { ctx, client, results } = run;
	const { installationId } = jobs[0];
	const first = jobs[0].itemIndex;
	let installation: IDataObject;
	try {
		installation =
			known ??
			(await getInstallation(client, installationId, {
				withBundles: true,
				withStatus: false,
				itemIndex: first,
			}));
	} catch (error) {
		for (const job of jobs) fail(run, job, error);
		return undefined;
	}
	for (const job of jobs) {
		// A step of another installation would be refused only after the pause; catch it first.
		const bundle = bundlesOf(installation).find((candidate) => sameId(candidate.id, job.bundleId));
		if (!bundle || !stepsOf(bundle).some((step) => sameId(step.id, job.stepId))) {
			fail(
				run,
				job,
				new NodeOperationError(
					ctx.getNode(),
					`Step ${job.stepId} of automation ${job.bundleId} is not part of installation ${installationId}`,
					{
						itemIndex: job.itemIndex,
						description:
							'Nothing was changed. Pick the automation and step again for this installation.',
					},
				),
			);
		}
	}
	jobs = jobs.filter((job) => !results.has(job.key));
	if (jobs.length === 0 || run.stopped) return undefined;

	const guard = new PauseGuard(run, installationId, first);
	guard.status = statusOf(installation) ?? (await statusFromList(run, installationId, first));
	if (guard.status === ACTIVE) {
		const pauseError = await guard.pause();
		if (pauseError) for (const job of jobs) fail(run, job, pauseError);
	}
	let restart: Awaited<ReturnType<PauseGuard['restart']>> = {};
	try {
		if (jobs.some((job) => !results.has(job.key)))
			await inStepOrder(run, jobs, (job) => guard.update(job));
	} finally {
		restart = await guard.restart();
	}
	reportRestart(run, jobs, guard, restart);
	return guard.status;
}
