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
import {
	RUN_STATUS,
	type RunDateInput,
	type RunInput,
	type RunOutcome,
	type RunRecord,
	type RunStepInput,
	type RunStepRecord,
} from '../runTypes';
import { streamsOf } from '../runStream';
import { streamedRuns, streamStepById } from '../runStreamList';
import type { EmulatorState, Variants } from '../types';
import { isPlainObject, ownBundle, type Handler, type HandlerContext } from './context';
import { offsetOf, renderRun, renderStep } from './runRender';

export { renderRun, renderRunDate } from './runRender';

/** Run and step status codes (runTypes.ts). */
export { RUN_STATUS };
/** The event code of Albato's example (meaning not documented): the emulator's default. */
export const DEFAULT_RUN_EVENT = 6;

const FIRST_RUN = 3061464101;
const FIRST_RUN_STEP = 3944029301;

class RunStore {
	readonly runs = new Map<number, RunRecord>();
	/** The same runs by bundle (fleets: a customer's runs without scanning everyone's). */
	readonly byBundle = new Map<number, RunRecord[]>();
	readonly steps = new Map<number, RunStepRecord>();
	nextRun = FIRST_RUN;
	nextStep = FIRST_RUN_STEP;
	constructor(private readonly state: EmulatorState) {
		this.load();
	}

	/** The fixture runs again, and no run streams. */
	reset(): void {
		streamsOf(this.state).clear();
		this.load();
	}

	private load(): void {
		this.runs.clear();
		this.byBundle.clear();
		this.steps.clear();
		this.nextRun = FIRST_RUN;
		this.nextStep = FIRST_RUN_STEP;
		for (const run of FIXTURE_RUNS) this.record(run);
	}

	/** Records a run (validated: the bundle must exist); returns the stored record. */
	record(input: RunInput): RunRecord {
		if (!isPlainObject(input)) throw new Error('a run must be an object');
		const bundle = this.state.bundles.get(Number(input.bundleId));
		if (!bundle) throw new Error(`unknown bundle ${String(input.bundleId)}`);
		const id = input.id ?? this.nextRun;
		if (!Number.isSafeInteger(id) || id <= 0) throw new Error('id must be a positive integer');
		if (this.runs.has(id)) throw new Error(`run ${id} already exists`);
		if (input.outcome !== undefined && !(input.outcome in RUN_STATUS))
			throw new Error('outcome must be "succeeded", "failed" or "inProgress"');
		for (const key of ['status', 'event'] as const)
			if (input[key] !== undefined && !Number.isInteger(input[key]))
				throw new Error(`${key} must be an integer`);
		const date = toMillis(input.dateCreated ?? Date.now(), 'dateCreated');
		const levels = input.steps ?? defaultSteps(bundle.stepIds, input.outcome ?? 'succeeded');
		if (!Array.isArray(levels) || !levels.every((l) => Array.isArray(l) && l.every(isPlainObject)))
			throw new Error('steps must be a list of lists of step objects');
		const outcome = input.outcome ?? outcomeOf(levels);
		const steps = levels.map((level, i) =>
			level.map((s, j) => this.step(s, id, i + 1, j, bundle.stepIds, date)),
		);
		const run: RunRecord = {
			id,
			bundleId: bundle.id,
			status: input.status ?? RUN_STATUS[outcome],
			event: input.event ?? DEFAULT_RUN_EVENT,
			dateCreated: date,
			steps,
		};
		this.runs.set(id, run);
		const ofBundle = this.byBundle.get(run.bundleId);
		if (ofBundle) ofBundle.push(run);
		else this.byBundle.set(run.bundleId, [run]);
		for (const step of steps.flat()) this.steps.set(step.id, step);
		this.nextRun = Math.max(this.nextRun, id + 1);
		return run;
	}

	private step(
		s: RunStepInput,
		eventId: number,
		level: number,
		index: number,
		stepIds: number[],
		runDate: number,
	): RunStepRecord {
		const status = typeof s.status === 'number' ? s.status : RUN_STATUS[s.status ?? 'succeeded'];
		if (status === undefined) throw new Error('a step status must be an outcome name or a number');
		const failed = status === RUN_STATUS.failed;
		const id = this.nextStep++;
		const date =
			s.dateCreated === undefined ? runDate : toMillis(s.dateCreated, 'step dateCreated');
		return {
			id,
			eventId,
			triggerActionId: s.triggerActionId ?? stepIds[level - 1] ?? 100000 + level,
			resultMessage:
				s.resultMessage !== undefined ? s.resultMessage : failed ? null : `Step ${level} done`,
			status,
			error: s.error !== undefined ? s.error : failed ? 'Emulated step error' : null,
			hasActiveRerun: s.hasActiveRerun ?? false,
			dateCreated: date,
			behaviourType:
				s.behaviourType !== undefined ? s.behaviourType : level === 1 ? 'webhook' : null,
			token: `${Math.floor(runDate / 1000)}_v78_AN_z_${level + index}`,
			warning: s.warning ?? null,
			warningData: s.warningData ?? [],
			stepLevel: level,
			detail: s.detail ?? {
				requestData: { level, attempt: 1 },
				responseData: failed ? { error: 'Emulated step error' } : { ok: true },
			},
		};
	}
}

function defaultSteps(stepIds: number[], outcome: RunOutcome): RunStepInput[][] {
	const ids = stepIds.length ? stepIds : [0];
	return ids.map((_, i) => [
		{ status: i === ids.length - 1 && outcome !== 'succeeded' ? outcome : 'succeeded' },
	]);
}

function outcomeOf(levels: RunStepInput[][]): RunOutcome {
	const statuses = levels.flat().map((s) => s.status ?? 'succeeded');
	if (statuses.some((s) => s === 'failed' || s === RUN_STATUS.failed)) return 'failed';
	if (statuses.some((s) => s === 'inProgress' || s === RUN_STATUS.inProgress)) return 'inProgress';
	return 'succeeded';
}

const NAIVE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;

/** Epoch ms of a date input; "YYYY-MM-DD HH:MM:SS" without a zone is read as UTC. */
function toMillis(value: RunDateInput, name: string): number {
	let ms = NaN;
	if (value instanceof Date) ms = value.getTime();
	else if (typeof value === 'number') ms = value;
	else if (typeof value === 'string')
		ms = Date.parse(NAIVE.test(value) ? `${value.replace(' ', 'T')}Z` : value);
	if (!Number.isFinite(ms)) throw new Error(`${name} must be a date`);
	return ms;
}

const stores = new WeakMap<EmulatorState, RunStore>();

/** The runs of one emulator (keyed by its state, as the list lag is). */
export function runsOf(state: EmulatorState): RunStore {
	let store = stores.get(state);
	if (!store) stores.set(state, (store = new RunStore(state)));
	return store;
}

// ------------------------------------------------------------------ handlers

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
	const store = runsOf(ctx.state);
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
	const run = runsOf(state).runs.get(id);
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
	const store = runsOf(ctx.state);
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

/** Fixture runs: user-1's bundles 7001 and 7003, user-2's 7004 (rendered newest first). */
const FIXTURE_RUNS: RunInput[] = [
	{ bundleId: 7001, outcome: 'succeeded', dateCreated: '2024-05-01 10:00:00' },
	{ bundleId: 7001, outcome: 'failed', dateCreated: '2024-05-01 11:00:00' },
	{ bundleId: 7003, outcome: 'succeeded', dateCreated: '2024-05-02 09:30:00' },
	{ bundleId: 7004, outcome: 'failed', dateCreated: '2024-05-02 12:00:00' },
];

/** Ids of the fixture runs (in the order recorded). */
export const FIXTURE_RUN_IDS = {
	user1Succeeded: 3061464101,
	user1Failed: 3061464102,
	user1Bundle7003: 3061464103,
	user2Failed: 3061464104,
} as const;
