/**
 * How run history renders (GET /bundle/events, /bundle/events/steps/{id}): dates, statuses and
 * steps under the run variants. Split from runs.ts, which stores and serves the runs.
 */
import type { RunRecord, RunStepRecord } from '../runTypes';
import type { Variants } from '../types';
import type { HandlerContext } from './context';
import { endUserOfSub } from './userLifecycle';

/** The same codes as words (variant `runStatuses: 'words'`); other codes stay numbers. */
const RUN_STATUS_WORDS: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error' };

const renderRunStatus = (status: number, ctx: HandlerContext) =>
	ctx.variants.runStatuses === 'words' ? (RUN_STATUS_WORDS[status] ?? status) : status;
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A date as the `runDates` variant renders it: 'utc' "YYYY-MM-DD HH:MM:SS" in UTC (Albato's form,
 * no zone); 'userOffset' the same form in the end user's time zone (`timezoneOffset` minutes east of
 * UTC, as add-user takes it; 0 for users without one); 'iso' "YYYY-MM-DDTHH:MM:SS+00:00".
 */
export function renderRunDate(ms: number, variants: Variants, offsetMinutes: number): string {
	if (variants.runDates === 'iso') return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
	const d = new Date(ms + (variants.runDates === 'userOffset' ? offsetMinutes * 60000 : 0));
	return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** The token subject's `timezoneOffset` (end users created through /wl), else 0. */
export function offsetOf(ctx: HandlerContext): number {
	const direct = endUserOfSub(ctx.state, ctx.user);
	if (direct) return direct.timezoneOffset ?? 0;
	for (const user of ctx.state.endUsers.values())
		if (user.sub === ctx.user) return user.timezoneOffset ?? 0;
	return 0;
}

export function renderStep(step: RunStepRecord, ctx: HandlerContext, offset: number) {
	return {
		id: step.id,
		triggerActionId: step.triggerActionId,
		resultMessage: step.resultMessage,
		status: renderRunStatus(step.status, ctx),
		error: step.error,
		hasActiveRerun: step.hasActiveRerun,
		dateCreated: renderRunDate(step.dateCreated, ctx.variants, offset),
		behaviourType: step.behaviourType,
		token: step.token,
		warning: step.warning,
		warningData: step.warningData,
		stepLevel: step.stepLevel,
	};
}

/** A run; `steps` only with expand=steps, as levels (list of lists) or flat (variant `runSteps`). */
export function renderRun(
	run: RunRecord,
	ctx: HandlerContext,
	withSteps: boolean,
	offset = offsetOf(ctx),
) {
	const out: Record<string, unknown> = {
		id: run.id,
		bundleId: run.bundleId,
		status: renderRunStatus(run.status, ctx),
		event: run.event,
		dateCreated: renderRunDate(run.dateCreated, ctx.variants, offset),
	};
	if (withSteps) {
		const levels = run.steps.map((level) => level.map((s) => renderStep(s, ctx, offset)));
		out.steps = ctx.variants.runSteps === 'flat' ? levels.flat() : levels;
	}
	return out;
}
