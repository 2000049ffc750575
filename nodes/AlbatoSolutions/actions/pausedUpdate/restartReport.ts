import type { NodeApiError } from 'n8n-workflow';

import { retold, shownOf } from '../../../shared/transport/errors';
import type { PausedInstallation } from './pausedInstallation';
import { withSentence } from '../withSentence';
import type { UpdateGroup, UpdateJob } from './updateGroup';

type Restart = { removed?: boolean; error?: Error };

/**
 * Gives every item of the group the outcome of the pause and restart. A failed restart never turns
 * successful updates into failures: they carry `restartError` (or, under "Continue (using error
 * output)", leave through the error output). Without Continue On Fail the node then fails with the
 * restart error, once every unit has ended (`failsAtEnd`).
 */
export function reportRestart(
	group: UpdateGroup,
	jobs: UpdateJob[],
	paused: PausedInstallation,
	restart: Restart,
) {
	const { outcomes, execution } = group;
	const done = jobs.filter((job) => outcomes.has(job) && !(outcomes.get(job) instanceof Error));
	const restartError = restart.error && restartFailure(group, jobs, done, restart.error);
	if (restartError) execution.failsAtEnd(restartError);
	// "Continue (using error output)": the applied items whose restart failed go to the error output.
	const toErrorOutput = execution.errorOutput;
	const told = new Map<Error, Error>(); // one error may stand for several items (e.g. a failed pause)
	for (const job of jobs) {
		const result = outcomes.get(job);
		if (result instanceof Error) {
			// The failed items say it too, so nobody misses a paused installation.
			if (restartError && !done.length)
				outcomes.set(job, alsoLeftPaused(group, result, told, restartError));
			continue;
		}
		if (!result) continue;
		if (restartError && toErrorOutput) {
			// An alerting branch on the error output must hear that the installation stopped.
			outcomes.set(job, leftPaused(group, job, restart.error!, applied(done)));
			continue;
		}
		Object.assign(result, {
			pausedForUpdate: paused.owesPlay,
			installationStatus: restart.removed ? null : (paused.status ?? null),
			...(restart.removed ? { installationRemoved: true } : {}),
			...(restartError
				? { restartError: `${sentence(restartError.message)} Start it with Installation → Start.` }
				: {}),
		});
	}
}

/** The error a failed restart fails the node with: it names what was applied, and what failed. */
function restartFailure(
	{ outcomes, execution }: UpdateGroup,
	jobs: UpdateJob[],
	done: UpdateJob[],
	cause: Error,
): NodeApiError {
	const { description } = shownOf(cause);
	const failed = jobs.find((job) => outcomes.get(job) instanceof Error);
	const stoppedBy = failed
		? `Item ${failed.itemIndex} failed: ${(outcomes.get(failed) as Error).message}. `
		: '';
	return retold(execution.ctx.getNode(), cause, {
		message: `Installation ${jobs[0].installationId} was paused for the update and could not be started again: ${cause.message}`,
		description: `${applied(done)}${stoppedBy}Start it with Installation → Start.${description ? ` (${description})` : ''}`,
		itemIndex: (done[0] ?? jobs[0]).itemIndex,
	});
}

/** A failed item's error, told once per error that the installation is left paused too. */
function alsoLeftPaused(
	{ execution }: UpdateGroup,
	result: Error,
	told: Map<Error, Error>,
	restartError: NodeApiError,
): Error {
	const also = `Also: ${sentence(restartError.message)} Start it with Installation → Start.`;
	const retoldError = told.get(result) ?? withSentence(execution.ctx.getNode(), result, also);
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
	{ execution }: UpdateGroup,
	job: UpdateJob,
	cause: Error,
	updates: string,
): NodeApiError {
	const { description } = shownOf(cause);
	return retold(execution.ctx.getNode(), cause, {
		message: `Installation ${job.installationId} is left paused: it was paused for the update and could not be started again (${cause.message})`,
		description: `${updates}Start it with Installation → Start when the service answers again.${description ? ` (${description})` : ''}`,
		itemIndex: job.itemIndex,
	});
}
