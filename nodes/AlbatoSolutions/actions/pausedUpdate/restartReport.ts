import type { NodeApiError } from 'n8n-workflow';

import { retold, shownOf } from '../../../shared/transport/errors';
import type { PauseGuard } from './pauseGuard';
import { withSentence } from '../withSentence';
import type { FieldUpdateBatch, UpdateJob } from './fieldUpdateBatch';

type Restart = { removed?: boolean; error?: Error };

/**
 * Gives every item of the group the outcome of the pause and restart. A failed restart never turns
 * successful updates into failures: they carry `restartError` (or, under "Continue (using error
 * output)", leave through the error output). Without Continue On Fail the batch then fails with the
 * restart error, after every group has finished.
 */
export function reportRestart(
	batch: FieldUpdateBatch,
	jobs: UpdateJob[],
	guard: PauseGuard,
	restart: Restart,
) {
	const { ctx, results } = batch;
	const done = jobs.filter(
		(job) => results.has(job.key) && !(results.get(job.key) instanceof Error),
	);
	const restartError = restart.error && restartFailure(batch, jobs, done, restart.error);
	if (restartError) batch.restartFailures.push(restartError);
	// "Continue (using error output)": the applied items whose restart failed go to the error output.
	const toErrorOutput = ctx.getNode().onError === 'continueErrorOutput';
	const told = new Map<Error, Error>(); // one error may stand for several items (e.g. a failed pause)
	for (const job of jobs) {
		const result = results.get(job.key);
		if (result instanceof Error) {
			// The failed items say it too, so nobody misses a paused installation.
			if (restartError && !done.length)
				results.set(job.key, alsoLeftPaused(batch, result, told, restartError));
			continue;
		}
		if (!result) continue;
		if (restartError && toErrorOutput) {
			// An alerting branch on the error output must hear that the installation stopped.
			results.set(job.key, leftPaused(batch, job, restart.error!, applied(done)));
			continue;
		}
		Object.assign(result, {
			pausedForUpdate: guard.owesPlay,
			installationStatus: restart.removed ? null : (guard.status ?? null),
			...(restart.removed ? { installationRemoved: true } : {}),
			...(restartError
				? { restartError: `${sentence(restartError.message)} Start it with Installation → Start.` }
				: {}),
		});
	}
}

/** The error a failed restart fails the batch with: it names what was applied, and what failed. */
function restartFailure(
	batch: FieldUpdateBatch,
	jobs: UpdateJob[],
	done: UpdateJob[],
	cause: Error,
): NodeApiError {
	const { results } = batch;
	const { description } = shownOf(cause);
	const failed = jobs.find((job) => results.get(job.key) instanceof Error);
	const stoppedBy = failed
		? `Item ${failed.itemIndex} failed: ${(results.get(failed.key) as Error).message}. `
		: '';
	return retold(batch.ctx.getNode(), cause, {
		message: `Installation ${jobs[0].installationId} was paused for the update and could not be started again: ${cause.message}`,
		description: `${applied(done)}${stoppedBy}Start it with Installation → Start.${description ? ` (${description})` : ''}`,
		itemIndex: (done[0] ?? jobs[0]).itemIndex,
	});
}

/** A failed item's error, told once per error that the installation is left paused too. */
function alsoLeftPaused(
	batch: FieldUpdateBatch,
	result: Error,
	told: Map<Error, Error>,
	restartError: NodeApiError,
): Error {
	const also = `Also: ${sentence(restartError.message)} Start it with Installation → Start.`;
	const retoldError = told.get(result) ?? withSentence(batch.ctx.getNode(), result, also);
	told.set(result, retoldError);
	return retoldError;
}

/** The text as a sentence: a service message may already end in a full stop. */
const sentence = (text: string) => (text.endsWith('.') ? text : `${text}.`);

/** Which updates were applied, for the messages: by item, and by step and field. */
function applied(done: UpdateJob[]): string {
	if (!done.length) return '';
	const items = done.map((job) => job.itemIndex);
	const steps = done.map((job) => `step ${job.stepId} (${Object.keys(job.data).join(', ')})`);
	return `The updates of item${items.length > 1 ? 's' : ''} ${[...new Set(items)].join(', ')} were applied: ${steps.join('; ')}. `;
}

/**
 * The error-output item of an update that applied while its installation could not be started
 * again.
 */
function leftPaused(
	batch: FieldUpdateBatch,
	job: UpdateJob,
	cause: Error,
	updates: string,
): NodeApiError {
	const { description } = shownOf(cause);
	return retold(batch.ctx.getNode(), cause, {
		message: `Installation ${job.installationId} is left paused: it was paused for the update and could not be started again (${cause.message})`,
		description: `${updates}Start it with Installation → Start when the service answers again.${description ? ` (${description})` : ''}`,
		itemIndex: job.itemIndex,
	});
}
