/**
 * The probe's run-history part: one read of GET /bundle/events?expand=steps, reporting
 * the `runSteps` and `runDates` shapes (keys and types only, never values).
 */
import type { Variants } from '../../emulator/types';
import { RUN_LIST_KEYS } from '../../nodes/shared/readers/runs';
import { listOrMap } from '../../nodes/shared/readers/shapes';

type Get = (path: string) => Promise<{ status: number; body: unknown }>;
const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** Runs from a body, read as the node reads every list (a list, wrapped, or a map keyed by id). */
const runsOf = (data: unknown): Array<Record<string, unknown>> => listOrMap(data, RUN_LIST_KEYS);

/**
 * The order of the runs on the first page, by their dates as sent (one format per answer, so the
 * texts compare as the dates do): what lets Run → Get New stop paging early (docs/runs.md).
 */
function orderOf(runs: Array<Record<string, unknown>>): string {
	const dates = runs.map((r) => r.dateCreated).filter((d): d is string => typeof d === 'string');
	if (dates.length < 2) return 'not told (fewer than 2 runs with a date)';
	const pairs = dates.slice(1).map((date, i) => [dates[i], date]);
	if (pairs.every(([a, b]) => a >= b))
		return 'newest first by date (Run → Get New may stop paging early)';
	if (pairs.every(([a, b]) => a <= b))
		return 'oldest first by date (Run → Get New reads every page)';
	return 'not by date (Run → Get New reads every page)';
}

export async function probeRuns(
	get: Get,
	unwrap: (body: unknown) => unknown,
	variants: Partial<Variants>,
	say: (shape: string, what: string) => void,
	unknown: (shape: string, what: string) => void,
): Promise<void> {
	const res = await get('/bundle/events?expand=steps');
	if (res.status >= 400) return unknown('run history', `GET /bundle/events answered ${res.status}`);
	const runs = runsOf(unwrap(res.body));
	const run = runs.find((r) => Array.isArray(r.steps) && r.steps.length > 0) ?? runs[0];
	if (!run) return unknown('run history', 'no runs for this user');
	say('run keys', Object.keys(run).sort().join(', '));
	say('run order', orderOf(runs));
	const out = { say, unknown };
	runStatuses(runs, variants, out);
	runDates(run.dateCreated, variants, out);
	runSteps(run.steps, variants, out);
}

/** What the probe says: a shape it read, or one it could not tell. */
interface Out {
	say: (shape: string, what: string) => void;
	unknown: (shape: string, what: string) => void;
}

function runStatuses(
	runs: { status?: unknown }[],
	variants: Partial<Variants>,
	{ say, unknown }: Out,
) {
	const statuses = runs
		.map((r) => r.status)
		.filter((status) => status !== undefined && status !== null);
	if (statuses.some((status) => typeof status === 'string' && !/^\s*\d+\s*$/.test(status))) {
		variants.runStatuses = 'words';
		say('run statuses', `words (${[...new Set(statuses.map(String))].slice(0, 5).join(', ')})`);
	} else if (statuses.length > 0) {
		variants.runStatuses = 'codes';
		say('run statuses', `codes (${[...new Set(statuses.map(String))].slice(0, 5).join(', ')})`);
	} else unknown('run statuses', 'no run has a status');
}

function runDates(date: unknown, variants: Partial<Variants>, { say, unknown }: Out) {
	if (typeof date === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(date)) {
		// Whether the service means UTC or the user's offset cannot be told from one read.
		variants.runDates = 'utc';
		say(
			'run dates',
			'"YYYY-MM-DD HH:MM:SS" without a time zone (UTC or the user\'s offset: not told)',
		);
	} else if (typeof date === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(date)) {
		variants.runDates = 'iso';
		say('run dates', 'ISO 8601 with a zone');
	} else unknown('run dates', typeof date);
}

function runSteps(steps: unknown, variants: Partial<Variants>, { say, unknown }: Out) {
	if (!Array.isArray(steps) || steps.length === 0)
		return void unknown('run steps', Array.isArray(steps) ? 'an empty list' : typeof steps);
	if (steps.every(Array.isArray)) {
		variants.runSteps = 'levels';
		const step = (steps as unknown[][]).flat().find(isObject);
		say(
			'run steps',
			`levels (a list of lists) of {${step ? Object.keys(step).sort().join(', ') : ''}}`,
		);
	} else if (steps.every(isObject)) {
		variants.runSteps = 'flat';
		say(
			'run steps',
			`one flat list of {${Object.keys(steps[0] as object)
				.sort()
				.join(', ')}}`,
		);
	} else unknown('run steps', 'neither levels nor a flat list');
}
