/**
 * Run history (docs.albato.com "Getting Solution History"), with the end-user token:
 *   GET /bundle/events?expand=steps[&bundleId=N | &filter[bundleId]=N]   the runs, newest first
 *   GET /bundle/events/steps/{id}                                          one step's detail
 * Runs are recorded by the control surface (`emu.recordRun`, `POST /__emulator/runs`); a few
 * fixture runs exist for user-1 and user-2. A user sees only runs of bundles of their own
 * installations: a removed installation's runs disappear with it.
 */
import { ApiError, notFound } from '../errors';
import { recordsOf } from '../indexedMap';
import { RUN_STATUS, type RunOutcome, type RunRecord } from '../runTypes';
import { streamedRuns, streamStepById } from '../runStreamList';
import type { EmulatorState, Variants } from '../types';
import { isPlainObject, ownBundle, type Handler, type HandlerContext } from './context';
import { offsetOf, renderRun, renderStep } from './runRender';

export { renderRun, renderRunDate } from './runRender';

/** Run and step status codes (runTypes.ts). */
export { RUN_STATUS };
export { DEFAULT_RUN_EVENT, FIXTURE_RUN_IDS } from '../runHistory';

/** Whether the run's bundle belongs to one of the user's installations (else it is invisible). */
function owns(ctx: HandlerContext, bundleId: number): boolean {
	const bundle = ctx.state.bundles.get(bundleId);
	const inst = bundle && ctx.state.installations.get(bundle.installationId);
	return !!inst && inst.userId === ctx.user;
}

/** `bundleId` or `filter[bundleId]` (the form GET /bundle/data uses); both given must agree. */
function bundleFilter(ctx: HandlerContext): number | undefined {
	const filter = ctx.query.filter;
	const given = [ctx.query.bundleId, isPlainObject(filter) ? filter.bundleId : undefined].filter(
		(v) => v !== undefined,
	);
	if (given.length === 0) return undefined;
	const bad = () =>
		new ApiError(422, [{ field: 'bundleId', message: 'bundleId must be an integer' }]);
	if (!given.every((v) => typeof v === 'string' && /^\d{1,15}$/.test(v))) throw bad();
	if (new Set(given).size > 1)
		throw new ApiError(422, [
			{ field: 'bundleId', message: 'bundleId and filter[bundleId] name different bundles' },
		]);
	return ownBundle(ctx, Number(given[0])).id;
}

function expandsSteps(ctx: HandlerContext): boolean {
	const raw = ctx.query.expand;
	return typeof raw === 'string' && raw.split(',').some((name) => name.trim() === 'steps');
}

/** GET /bundle/events: the user's runs, newest first (date, then id), optionally of one bundle. */
export const listRuns: Handler = (ctx) => {
	const bundleId = bundleFilter(ctx);
	const withSteps = expandsSteps(ctx);
	const offset = offsetOf(ctx);
	const store = ctx.state.runHistory;
	const bundleIds =
		bundleId === undefined
			? recordsOf(ctx.state.installations, ctx.user).flatMap((i) => i.bundleIds)
			: [bundleId];
	const runs = bundleIds
		.flatMap((id) => store.byBundle.get(id) ?? [])
		// The index may hold runs that tests removed from `runs` directly: the map decides.
		.filter((r) => store.runs.get(r.id) === r)
		.filter((r) => (bundleId === undefined ? owns(ctx, r.bundleId) : r.bundleId === bundleId))
		.sort((a, b) => b.dateCreated - a.dateCreated || b.id - a.id);
	const render = (r: RunRecord) => renderRun(r, ctx, withSteps, offset);
	// Bundles with a run stream: newest first, a page at a time (runStreamList.ts).
	const streamed = streamedRuns(ctx.state, bundleIds, runs, render);
	return { data: streamed ?? inOrder(runs, ctx.variants.runOrder).map(render) };
};

/** The runs (newest first) in the `runOrder` variant's order. */
function inOrder(runs: RunRecord[], order: Variants['runOrder']): RunRecord[] {
	if (order === 'oldest') return runs.reverse();
	if (order === 'idDesc') return runs.sort((a, b) => b.id - a.id);
	if (order === 'shuffled')
		return runs
			.map((run) => ({ run, rank: ((run.id * 2654435761) >>> 0) % 1000003 }))
			.sort((a, b) => a.rank - b.rank)
			.map(({ run }) => run);
	return runs;
}

/** Changes a recorded run's outcome (a run in progress that ends): its status, and its last level's steps. */
export function endRun(
	state: EmulatorState,
	id: number,
	outcome: RunOutcome,
	/** Tests: when the last level ran (its steps' dateCreated, epoch ms); kept as recorded if absent. */
	endedAt?: number,
): RunRecord {
	const run = state.runHistory.runs.get(id);
	if (!run) throw new Error(`unknown run ${id}`);
	run.status = RUN_STATUS[outcome];
	const last = run.steps[run.steps.length - 1] ?? [];
	for (const step of last) {
		if (endedAt !== undefined) step.dateCreated = endedAt;
		step.status = RUN_STATUS[outcome];
		step.error = outcome === 'failed' ? 'Emulated step error' : null;
		step.resultMessage = outcome === 'failed' ? null : `Step ${step.stepLevel} done`;
	}
	return run;
}

/** GET /bundle/events/steps/{id}: the step as listed, plus eventId, bundleId and its detail (in a list with `runStepAnswer: 'list'`). */
export const getRunStep: Handler = (ctx) => {
	const store = ctx.state.runHistory;
	const streamed = streamStepById(ctx.state, ctx.id);
	const step = streamed?.step ?? store.steps.get(ctx.id);
	const run = streamed?.run ?? (step && store.runs.get(step.eventId));
	if (!step || !run || !owns(ctx, run.bundleId)) throw notFound(`Event step ${ctx.id}`);
	const detail = {
		...renderStep(step, ctx, offsetOf(ctx)),
		eventId: run.id,
		bundleId: run.bundleId,
		...step.detail,
	};
	return { data: ctx.variants.runStepAnswer === 'list' ? [detail] : detail };
};
