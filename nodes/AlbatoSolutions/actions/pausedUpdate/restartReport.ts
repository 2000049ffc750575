import type { NodeApiError } from 'n8n-workflow';

import { retold } from '../../../shared/transport/errors';
import type { PauseGuard } from './pauseGuard';
import { withSentence } from '../withSentence';
import type { UpdateJob, UpdateRun } from './updateRun';

/** Gives every item of the group the outcome of the pause and restart (rule 5). */
export function reportRestart(
	run: UpdateRun,
	jobs: UpdateJob[],
	guard: PauseGuard,
	restart: { removed?: boolean; error?: Error },
) {
	const { ctx, results } = run;
	const { installationId } = jobs[0];
	const done = jobs.filter(
		(job) => results.has(job.key) && !(results.get(job.key) instanceof Error),
	);
	let restartError: NodeApiError | undefined;
	if (restart.error) {
		const cause = restart.error as Error & { description?: string };

		const failed = jobs.find((job) => results.get(job.key) instanceof Error);
		const stoppedBy = failed
			? `Item ${failed.itemIndex} failed: ${(results.get(failed.key) as Error).message}. `
			: '';
		restartError = retold(ctx.getNode(), cause, {
			message: `Installation ${installationId} was paused for the update and could not be started again: ${cause.message}`,
			description: `${applied(done)}${stoppedBy}Start it with Installation → Start.${cause.description ? ` (${cause.description})` : ''}`,
			itemIndex: (done[0] ?? jobs[0]).itemIndex,
		});
		run.restartFailures.push(restartError);
	}
	// "Continue (using error output)": the applied items whose restart failed go to the error output.
	const toErrorOutput = ctx.getNode().onError === 'continueErrorOutput';
	const told = new Map<Error, Error>(); // one error may stand for several items (e.g. a failed pause)
	for (const job of jobs) {
		const result = results.get(job.key);
		if (result instanceof Error) {
			// The failed items say it too, so nobody misses a paused installation.
			if (restartError && !done.length) {
				const also = `Also: ${sentence(restartError.message)} Start it with Installation → Start.`;
				const retoldError = told.get(result) ?? withSentence(ctx.getNode(), result, also);
				told.set(result, retoldError);
				results.set(job.key, retoldError);
			}
			continue;
		}
		if (!result) continue;
		if (restartError && toErrorOutput) {
			// An alerting branch on the error output must hear that the installation stopped.
			results.set(job.key, leftPaused(run, job, restart.error!, applied(done)));
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
function leftPaused(run: UpdateRun, job: UpdateJob, cause: Error, updates: string): NodeApiError {
	const { description } = cause as Error & { description?: string };
	return retold(run.ctx.getNode(), cause, {
		message: `Installation ${job.installationId} is left paused: it was paused for the update and could not be started again (${cause.message})`,
		description: `${updates}Start it with Installation → Start when the service answers again.${description ? ` (${description})` : ''}`,
		itemIndex: job.itemIndex,
	});
}
