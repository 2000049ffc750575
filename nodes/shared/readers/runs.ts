/**
 * Reading run history (GET /bundle/events?expand=steps), pure. Albato documents only `status: 1`
 * (a run that succeeded, steps with `error: null`) and no names for any other code, and dates
 * without a zone ("2025-05-19 17:58:18"). The rules that decide what a run is live here, once.
 */
import type { IDataObject } from 'n8n-workflow';

import { withoutSecrets } from './secrets';
import { idOf, isObject } from './shapes';

/**
 * The one status code Albato's page shows (a run that succeeded); every other code is given raw.
 */
export const SUCCEEDED_CODE = 1;
/** What the emulator uses for a run still going; Albato documents nothing (see docs/runs.md). */
export const IN_PROGRESS_CODE = 0;

/** Lists that may wrap the runs (besides items/data/list/results). */
export const RUN_LIST_KEYS = ['events', 'runs'];

export type RunResult = 'succeeded' | 'failed' | 'inProgress' | 'unknown';

const hasError = (step: IDataObject) =>
	step.error !== null &&
	step.error !== undefined &&
	step.error !== '' &&
	!(Array.isArray(step.error) && step.error.length === 0);

/**
 * Words a service may send for a status instead of a code (Albato documents none), squeezed:
 * lower case, without spaces, "_" or "-". A word not listed reads as unknown, never as succeeded.
 */
const STATUS_WORDS = new Map<string, RunResult>([
	...['success', 'succeeded', 'successful', 'ok', 'done', 'completed', 'complete', 'finished'].map(
		(word) => [word, 'succeeded'] as const,
	),
	...[
		'error',
		'errored',
		'failed',
		'failure',
		'fail',
		'timeout',
		'timedout',
		'aborted',
		'cancelled',
		'canceled',
	].map((word) => [word, 'failed'] as const),
	...[
		'processing',
		'inprogress',
		'running',
		'pending',
		'queued',
		'inqueue',
		'new',
		'scheduled',
		'started',
		'waiting',
		'retrying',
	].map((word) => [word, 'inProgress'] as const),
]);

/**
 * What one status says, code or word: 1 succeeded, 0 in progress, another code failed; a word by
 * STATUS_WORDS, an unlisted one unknown; undefined when there is none (null, absent, empty).
 */
function statusOutcome(value: unknown): RunResult | undefined {
	const code = codeOf(value);
	if (code !== undefined)
		return code === SUCCEEDED_CODE
			? 'succeeded'
			: code === IN_PROGRESS_CODE
				? 'inProgress'
				: 'failed';
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	return (
		STATUS_WORDS.get(
			value
				.trim()
				.toLowerCase()
				.replace(/[\s_-]+/g, ''),
		) ?? 'unknown'
	);
}

const stepFails = (step: IDataObject) => hasError(step) || statusOutcome(step.status) === 'failed';

/**
 * The rule (docs/runs.md): status 0 is in progress; a step with an error, or a status other than 0
 * or 1, is failed; status 1 without a failing step is succeeded; a status that cannot be read is
 * unknown. Without a status, the steps decide. Statuses sent as words read as their codes would.
 */
export function runOutcome(run: IDataObject, steps: IDataObject[] = stepsOfRun(run)): RunResult {
	const status = statusOutcome(run.status);
	if (status === 'inProgress') return 'inProgress';
	if (steps.some(stepFails)) return 'failed';
	const stepStatuses = steps.map((step) => statusOutcome(step.status));
	// A status that cannot be read leaves it to the steps: one still going keeps the run going.
	if (status === 'unknown') return stepStatuses.includes('inProgress') ? 'inProgress' : 'unknown';
	if (status !== undefined) return status;
	if (steps.length === 0) return 'unknown';
	if (stepStatuses.includes('inProgress')) return 'inProgress';
	return stepStatuses.includes('unknown') ? 'unknown' : 'succeeded';
}

/**
 * Whether a run has ended: anything but in progress. A run of unknown result has ended too: nothing
 * says it is still going (a step still going keeps it in progress). Run → Get New returns it once;
 * the trigger's Run Failed / Run Succeeded wait until it reads as one of them.
 */
export const isEnded = (run: IDataObject) => runOutcome(run) !== 'inProgress';

/**
 * How long a run may take to end and be listed after its date (minutes): Run → Get New's default
 * Allowed Lateness, and how far back of the newest run it knows the trigger reads (docs/trigger.md).
 */
export const DEFAULT_LATENESS_MINUTES = 60;

/** A numeric code as a number ("1" → 1); undefined when absent or not a whole number. */
export function codeOf(value: unknown): number | undefined {
	const id = idOf(value);
	return typeof id === 'number' && Number.isInteger(id) ? id : undefined;
}

/** The documented name of a status code, or null (no other name is documented). */
export const statusNameOf = (code: unknown): string | null =>
	codeOf(code) === SUCCEEDED_CODE ? 'succeeded' : null;

/**
 * A step's outcome, by the same rule as a run's: an error or a code other than 0 and 1 is failed,
 * 0 in progress, 1 succeeded; 'unknown' when it says nothing or nothing readable.
 */
export function stepOutcome(step: IDataObject): RunResult {
	if (hasError(step)) return 'failed';
	return statusOutcome(step.status) ?? 'unknown';
}

/**
 * Step titles by step id (the automation's steps, as the installation's detail lists them): a run's
 * steps name their automation step in `triggerActionId`.
 */
export type StepTitles = ReadonlyMap<string, string>;

/**
 * Steps in order, flat: the documented list of lists (one list per level), or a flat list. Each
 * step keeps its `stepLevel`; steps without one get their list's level (1-based).
 */
export function stepsOfRun(run: IDataObject): IDataObject[] {
	const raw = run.steps;
	if (!Array.isArray(raw)) return [];
	const out: IDataObject[] = [];
	raw.forEach((entry, index) => {
		const level = Array.isArray(entry) ? entry : [entry];
		for (const step of level.filter(isObject))
			out.push({
				...step,
				stepLevel: codeOf(step.stepLevel) ?? (Array.isArray(entry) ? index + 1 : null),
			});
	});
	return out;
}

/** The first step that failed (see runOutcome), if any: an error first, then a failing status. */
export function failedStepOf(steps: IDataObject[]): IDataObject | undefined {
	return steps.find(hasError) ?? steps.find(stepFails);
}

const NAIVE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/;

/**
 * Epoch ms of a service date. A date without a zone is read as `offsetMinutes` east of UTC (0: UTC,
 * the default assumption; -180: UTC−3, as Albato's `timezoneOffset`); a date with a zone as given.
 */
export function runDateMs(value: unknown, offsetMinutes = 0): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value))
		return value < 1e11 ? value * 1000 : value;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	const naive = NAIVE.exec(text);
	if (naive) {
		const [, y, mo, d, h, mi, s = '0', frac = ''] = naive;
		const utc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, frac ? Math.round(+frac * 1000) : 0);
		return Number.isFinite(utc) ? utc - offsetMinutes * 60_000 : undefined;
	}
	const parsed = Date.parse(text);
	return Number.isFinite(parsed) ? parsed : undefined;
}

/** A service date as ISO text (UTC), or null when it cannot be read. */
export function isoOfRunDate(value: unknown, offsetMinutes = 0): string | null {
	const ms = runDateMs(value, offsetMinutes);
	return ms === undefined ? null : new Date(ms).toISOString();
}

/** The run ids as numbers when numeric (runs under the `stringIds` variant carry "3061464101"). */
export const runIdOf = (run: IDataObject) => idOf(run.id);

/**
 * The run as one output item: ids normalised, steps flat with their level and title, dates ISO.
 * `statusName` is the documented name (succeeded), else the node's reading of the run (`outcome`:
 * failed, inProgress, unknown), so it is never null for a run that failed.
 */
export function runItem(run: IDataObject, offsetMinutes = 0, titles?: StepTitles): IDataObject {
	const steps = stepsOfRun(run);
	const failed = failedStepOf(steps);
	// `event` (a code whose meaning is not documented) is output as eventCode: the trigger's items
	// use `event` for their event's name.
	const rest: IDataObject = { ...run };
	const eventCode = run.event;
	delete rest.steps;
	delete rest.event;
	const outcome = runOutcome(run, steps);
	return {
		...rest,
		id: runIdOf(run) ?? run.id ?? null,
		bundleId: idOf(run.bundleId) ?? run.bundleId ?? null,
		status: run.status ?? null,
		statusName: statusNameOf(run.status) ?? outcome,
		outcome,
		eventCode: eventCode ?? null,
		dateCreated: isoOfRunDate(run.dateCreated, offsetMinutes),
		dateCreatedAsSent: run.dateCreated ?? null,
		failedStep: failed ? stepItem(failed, offsetMinutes, titles) : null,
		steps: steps.map((step) => stepItem(step, offsetMinutes, titles)),
	};
}

/**
 * What the incident rules read of a run (shared/readers/incidents.ts): runItem's `id`,
 * `bundleId`, `outcome`, `dateCreated` and `failedStep` (of a failed run only), without the
 * steps' items. A catch-up reads every run of a week; most are only points on a timeline.
 */
export function runPoint(run: IDataObject, offsetMinutes = 0, titles?: StepTitles): IDataObject {
	const steps = stepsOfRun(run);
	const outcome = runOutcome(run, steps);
	const failed = outcome === 'failed' ? failedStepOf(steps) : undefined;
	return {
		id: runIdOf(run) ?? run.id ?? null,
		bundleId: idOf(run.bundleId) ?? run.bundleId ?? null,
		outcome,
		dateCreated: isoOfRunDate(run.dateCreated, offsetMinutes),
		failedStep: failed ? stepItem(failed, offsetMinutes, titles) : null,
	};
}

/**
 * One step with its date as ISO (the text as sent kept beside it); keys that name a secret left out
 * at any depth (the step's own `token`, and the credentials its request and response may carry).
 */
export function stepItem(step: IDataObject, offsetMinutes = 0, titles?: StepTitles): IDataObject {
	const rest = withoutSecrets(step) as IDataObject;
	const title = titles?.get(String(idOf(step.triggerActionId) ?? step.triggerActionId));
	return {
		...rest,
		id: idOf(step.id) ?? step.id ?? null,
		// Always present (null when not known), so every run has one shape wherever it comes from.
		title: title ?? step.title ?? null,
		...Object.fromEntries(
			['triggerActionId', 'eventId', 'bundleId']
				.filter((key) => step[key] !== undefined)
				.map((key) => [key, idOf(step[key]) ?? step[key]]),
		),
		statusName: statusNameOf(step.status) ?? stepOutcome(step),
		dateCreated: isoOfRunDate(step.dateCreated, offsetMinutes),
		dateCreatedAsSent: step.dateCreated ?? null,
	};
}
