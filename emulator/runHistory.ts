/**
 * The run history the emulator keeps: its part of the state (state.ts), the runs recorded by the
 * control surface and the fixture runs. Imports only runTypes.ts, so that types.ts can name it.
 */
import {
	RUN_STATUS,
	type RunDateInput,
	type RunInput,
	type RunOutcome,
	type RunRecord,
	type RunStepInput,
	type RunStepRecord,
} from './runTypes';

/** The event code of Albato's example (meaning not documented): the emulator's default. */
export const DEFAULT_RUN_EVENT = 6;

const FIRST_RUN = 3061464101;
const FIRST_RUN_STEP = 3944029301;

/** What the history reads of a bundle: its id and its steps. */
interface BundleSteps {
	id: number;
	stepIds: number[];
}

/** Where one step sits: its run, level (from 1), place in the level, the bundle's steps and the run's date. */
interface StepPlace {
	eventId: number;
	level: number;
	index: number;
	stepIds: number[];
	runDate: number;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
	!!v && typeof v === 'object' && !Array.isArray(v);

export class RunHistory {
	readonly runs = new Map<number, RunRecord>();
	/** The same runs by bundle (fleets: a customer's runs without scanning everyone's). */
	readonly byBundle = new Map<number, RunRecord[]>();
	readonly steps = new Map<number, RunStepRecord>();
	nextRun = FIRST_RUN;
	nextStep = FIRST_RUN_STEP;

	/** `bundles`: the state's bundles, which a recorded run must name. */
	constructor(private readonly bundles: ReadonlyMap<number, BundleSteps>) {}

	/** The fixture runs again, and nothing else. */
	reset(): void {
		this.runs.clear();
		this.byBundle.clear();
		this.steps.clear();
		this.nextRun = FIRST_RUN;
		this.nextStep = FIRST_RUN_STEP;
		for (const run of FIXTURE_RUNS) this.record(run);
	}

	/** Records a run (validated: the bundle must exist); returns the stored record. */
	record(input: RunInput): RunRecord {
		const { bundle, id, date, levels } = this.checked(input);
		const outcome = input.outcome ?? outcomeOf(levels);
		const steps = levels.map((level, i) =>
			level.map((s, j) =>
				this.step(s, {
					eventId: id,
					level: i + 1,
					index: j,
					stepIds: bundle.stepIds,
					runDate: date,
				}),
			),
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

	/** The input checked: its bundle, id, date (epoch ms) and levels of steps. */
	private checked(input: RunInput) {
		if (!isObject(input)) throw new Error('a run must be an object');
		const bundle = this.bundles.get(Number(input.bundleId));
		if (!bundle) throw new Error(`unknown bundle ${String(input.bundleId)}`);
		const id = input.id ?? this.nextRun;
		if (!Number.isSafeInteger(id) || id <= 0) throw new Error('id must be a positive integer');
		if (this.runs.has(id)) throw new Error(`run ${id} already exists`);
		checkCodes(input);
		const date = toMillis(input.dateCreated ?? Date.now(), 'dateCreated');
		const levels = input.steps ?? defaultSteps(bundle.stepIds, input.outcome ?? 'succeeded');
		if (!Array.isArray(levels) || !levels.every((l) => Array.isArray(l) && l.every(isObject)))
			throw new Error('steps must be a list of lists of step objects');
		return { bundle, id, date, levels };
	}

	private step(s: RunStepInput, at: StepPlace): RunStepRecord {
		const status = typeof s.status === 'number' ? s.status : RUN_STATUS[s.status ?? 'succeeded'];
		if (status === undefined) throw new Error('a step status must be an outcome name or a number');
		const { level, runDate } = at;
		const date =
			s.dateCreated === undefined ? runDate : toMillis(s.dateCreated, 'step dateCreated');
		const texts = stepTexts(s, level, status === RUN_STATUS.failed);
		return {
			id: this.nextStep++,
			eventId: at.eventId,
			triggerActionId: s.triggerActionId ?? at.stepIds[level - 1] ?? 100000 + level,
			resultMessage: texts.resultMessage,
			status,
			error: texts.error,
			hasActiveRerun: s.hasActiveRerun ?? false,
			dateCreated: date,
			behaviourType:
				s.behaviourType !== undefined ? s.behaviourType : level === 1 ? 'webhook' : null,
			token: `${Math.floor(runDate / 1000)}_v78_AN_z_${level + at.index}`,
			warning: s.warning ?? null,
			warningData: s.warningData ?? [],
			stepLevel: level,
			detail: texts.detail,
		};
	}
}

/** The outcome, status and event, when given, must be one of the names and integers. */
function checkCodes(input: RunInput): void {
	if (input.outcome !== undefined && !(input.outcome in RUN_STATUS))
		throw new Error('outcome must be "succeeded", "failed" or "inProgress"');
	for (const key of ['status', 'event'] as const)
		if (input[key] !== undefined && !Number.isInteger(input[key]))
			throw new Error(`${key} must be an integer`);
}

/** A step's message, error and detail: given, or the defaults of a step that failed or succeeded. */
function stepTexts(s: RunStepInput, level: number, failed: boolean) {
	return {
		resultMessage:
			s.resultMessage !== undefined ? s.resultMessage : failed ? null : `Step ${level} done`,
		error: s.error !== undefined ? s.error : failed ? 'Emulated step error' : null,
		detail: s.detail ?? {
			requestData: { level, attempt: 1 },
			responseData: failed ? { error: 'Emulated step error' } : { ok: true },
		},
	};
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
