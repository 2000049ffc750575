/**
 * Incidents per automation, read from the run history itself: Run → Get New's Group Into Incidents
 * and the trigger's Automation Failing / Automation Recovered. Pure. An incident is a streak of
 * failed runs of one automation: it opens at the first failed run after a success (or the first run
 * ever), and the next successful run resolves it. Nothing about incidents is remembered: the runs
 * the service lists say which automations are failing and since when, so the answer is the same on
 * any worker, after a restart, and for two executions at once.
 *
 * What is reported is decided by which runs are new to this sweep (`fresh`: the caller's memory or
 * gate says so, each run to one sweep only):
 * - a new failed run whose previous run succeeded (or that is the first run listed): one
 *   `incidentOpened` item; further failures report nothing;
 * - a new successful run whose previous run failed: one `incidentResolved` item with how long the
 *   incident lasted and how many runs failed;
 * - a run that ends after newer runs of its automation were reported counts in its streak but
 *   reports nothing itself;
 * - on a customer's first sweep, the history only sets the state: each automation failing now is
 *   reported once (incidentOpened), incidents already over are not;
 * - with Remind After, `dueReminders` names each incident open for another whole Remind After
 *   since its first failed run; its key makes it once per period (the caller's gate decides).
 */
import type { IDataObject } from 'n8n-workflow';

import { automationRunKey, reminderKey } from './runKeys';

/** One ended run of an automation, in the order the incident rules read them. */
interface Point {
	id: string;
	/** Epoch ms; NaN when unreadable (sorted first, counted in no duration). */
	at: number;
	failed: boolean;
	item: IDataObject;
}

/**
 * Output items of ended runs (Run → Get New's shape: `id`, `bundleId`, `outcome`, ISO
 * `dateCreated`), by automation, oldest first. Runs in progress or of unknown outcome are left out.
 */
function timelines(history: IDataObject[]): Map<string, Point[]> {
	const byAutomation = new Map<string, Point[]>();
	const seen = new Set<string>();
	for (const item of history) {
		if (item.outcome !== 'failed' && item.outcome !== 'succeeded') continue;
		const id = String(item.id);
		const automation = String(item.bundleId ?? '');
		const key = automationRunKey(automation, id);
		if (seen.has(key)) continue;
		seen.add(key);
		const at = typeof item.dateCreated === 'string' ? Date.parse(item.dateCreated) : Number.NaN;
		const points = byAutomation.get(automation) ?? [];
		points.push({ id, at, failed: item.outcome === 'failed', item });
		byAutomation.set(automation, points);
	}
	for (const points of byAutomation.values()) points.sort(olderFirst);
	return byAutomation;
}

function olderFirst(a: Point, b: Point): number {
	const da = Number.isNaN(a.at) ? -Infinity : a.at;
	const db = Number.isNaN(b.at) ? -Infinity : b.at;
	if (da !== db) return da - db;
	const na = Number(a.id);
	const nb = Number(b.id);
	if (Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
	return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The streak of failed runs that ends at `end` (inclusive): its first index, and the success
 * before it (undefined when the streak reaches the oldest run listed).
 */
function streakBefore(points: Point[], end: number): { start: number; after?: Point } {
	let start = end;
	while (start > 0 && points[start - 1].failed) start--;
	return { start, after: start > 0 ? points[start - 1] : undefined };
}

const isoOf = (ms: number) => (Number.isNaN(ms) ? null : new Date(ms).toISOString());
const idOut = (id: string) => (Number.isFinite(Number(id)) ? Number(id) : id);

/** An incident: the streak of `failedRuns` failed runs of one automation from `points[start]`. */
interface Streak {
	automation: string;
	points: Point[];
	start: number;
	failedRuns: number;
}

function eventItem(
	event: string,
	{ automation, points, start, failedRuns }: Streak,
	endUserFields: IDataObject,
	extra: IDataObject,
): IDataObject {
	const first = points[start].item;
	const named = [...points].reverse().find((point) => point.item.bundleTitle != null)?.item;
	return {
		event,
		...endUserFields,
		installationId: first.installationId ?? named?.installationId ?? null,
		installationTitle: first.installationTitle ?? named?.installationTitle ?? null,
		bundleId: idOut(automation),
		bundleTitle: first.bundleTitle ?? named?.bundleTitle ?? null,
		openedAt: isoOf(points[start].at),
		failedRuns,
		...extra,
	};
}

export interface IncidentInput {
	/** Output items of the runs read for one customer (any order; ended ones count). */
	history: IDataObject[];
	/** Ids of the runs new to this sweep (returned by no other sweep). */
	fresh: ReadonlySet<string>;
	/** The customer's first sweep: report only what is failing now. */
	firstSweep: boolean;
	/**
	 * Added to every item (endUserId in partner mode): the end user's fields. To be named
	 * `endUserFields` with Run → Get New's files (sweepAnswer.ts passes it).
	 */
	endUserFields: IDataObject;
}

/** The incidentOpened and incidentResolved items of one sweep of one customer, oldest first. */
export function incidentEvents(input: IncidentInput): IDataObject[] {
	return incidentEventsAt(input).map(({ item }) => item);
}

/** incidentEvents, each item with the date (epoch ms) of the run that decided it. */
export function incidentEventsAt(input: IncidentInput): Array<{ at: number; item: IDataObject }> {
	const items: Array<{ at: number; item: IDataObject }> = [];
	for (const [automation, points] of timelines(input.history)) {
		const emit = (index: number, item: IDataObject) => items.push({ at: points[index].at, item });
		if (input.firstSweep) {
			const last = points.length - 1;
			if (!points[last].failed) continue;
			const { start } = streakBefore(points, last);
			emit(last, opened(automation, points, start, last, input.endUserFields));
			continue;
		}
		// Only runs newer than every run reported before decide anything (a late one only counts).
		let frontier = points.length;
		while (frontier > 0 && input.fresh.has(points[frontier - 1].id)) frontier--;
		for (let i = frontier; i < points.length; i++) {
			const previous = i > 0 ? points[i - 1] : undefined;
			if (points[i].failed && (!previous || !previous.failed)) {
				let end = i;
				while (end + 1 < points.length && points[end + 1].failed) end++;
				emit(i, opened(automation, points, i, end, input.endUserFields));
			} else if (!points[i].failed && previous?.failed) {
				emit(i, resolved(automation, points, i, input.endUserFields));
			}
		}
	}
	return items.sort((a, b) => (a.at || 0) - (b.at || 0));
}

function opened(
	automation: string,
	points: Point[],
	start: number,
	end: number,
	endUserFields: IDataObject,
): IDataObject {
	const run = points[start].item;
	const streak = { automation, points, start, failedRuns: end - start + 1 };
	return eventItem('incidentOpened', streak, endUserFields, {
		failedStep: run.failedStep ?? null,
		run,
	});
}

function resolved(
	automation: string,
	points: Point[],
	index: number,
	endUserFields: IDataObject,
): IDataObject {
	const { start } = streakBefore(points, index - 1);
	const lasted = points[index].at - points[start].at;
	const streak = { automation, points, start, failedRuns: index - start };
	return eventItem('incidentResolved', streak, endUserFields, {
		resolvedAt: isoOf(points[index].at),
		durationSeconds: Number.isNaN(lasted) ? null : Math.round(lasted / 1000),
		firstFailedRunId: idOut(points[start].id),
		run: points[index].item,
	});
}

export interface Reminder {
	/**
	 * Once per incident and period: the automation, the success before the incident (or `-` when
	 * the history listed starts inside it) and the number of whole periods open.
	 */
	key: string;
	bundleId: string;
	item: IDataObject;
}

/**
 * The incidents open now (the automation's newest ended run failed) for another whole
 * `remindAfterMs` since their first failed run. A streak longer than the history listed counts
 * from its oldest run listed, so its reminders come late, never twice.
 */
export function dueReminders(
	history: IDataObject[],
	remindAfterMs: number,
	now: number,
	endUserFields: IDataObject,
): Reminder[] {
	if (remindAfterMs <= 0) return [];
	const due: Reminder[] = [];
	for (const [automation, points] of timelines(history)) {
		const last = points.length - 1;
		if (!points[last].failed) continue;
		const { start, after } = streakBefore(points, last);
		const open = now - points[start].at;
		if (Number.isNaN(open) || open < remindAfterMs) continue;
		const periods = Math.floor(open / remindAfterMs);
		const streak = { automation, points, start, failedRuns: last - start + 1 };
		due.push({
			key: reminderKey(automation, after?.id, periods),
			bundleId: automation,
			item: eventItem('incidentReminder', streak, endUserFields, {
				openForSeconds: Math.round(open / 1000),
				lastFailedRunId: idOut(points[last].id),
			}),
		});
	}
	return due;
}

/**
 * Whether the runs read so far (raw or output items mapped to outcome, automation and date by
 * `point`) are enough to decide the incidents of the runs `isNew` names: each automation with a new
 * run also has the run before its oldest new one, and a new success after a failure has the
 * success before that streak (for how long it lasted and how many runs failed).
 */
export function incidentContextRead(
	runs: IDataObject[],
	point: (run: IDataObject) => IDataObject,
	isNew: (run: IDataObject) => boolean,
): boolean {
	const fresh = new Set<string>();
	const history = runs.map((run) => {
		const item = point(run);
		if (isNew(run)) fresh.add(String(item.id));
		return item;
	});
	for (const points of timelines(history).values()) {
		const oldestNew = points.findIndex((p) => fresh.has(p.id));
		if (oldestNew === -1) continue;
		if (oldestNew === 0) return false;
		for (let i = oldestNew; i < points.length; i++) {
			if (points[i].failed || !points[i - 1].failed) continue;
			if (streakBefore(points, i - 1).after === undefined) return false;
		}
	}
	return true;
}

/** Whether each automation failing at the end of `history` has the success before its streak. */
export const openStreaksBounded = (history: IDataObject[]): boolean =>
	[...timelines(history).values()].every(
		(points) => !points.at(-1)!.failed || streakBefore(points, points.length - 1).after,
	);

/** Reminder periods a removal names at most per incident (the newest ones). */
const STALE_PERIODS = 48;

/**
 * The reminders no sweep asks for again (Run → Get New removes them from its store): of an open
 * incident, its periods before the last two; of an incident resolved at least one Remind After ago,
 * every period it could have reached. Only the newest STALE_PERIODS of each.
 */
export function staleReminders(
	history: IDataObject[],
	remindAfterMs: number,
	now: number,
): string[] {
	if (remindAfterMs <= 0) return [];
	const keys: string[] = [];
	const periods = (automation: string, after: Point | undefined, to: number) => {
		for (let p = Math.max(1, to - STALE_PERIODS + 1); p <= to; p++)
			keys.push(reminderKey(automation, after?.id, p));
	};
	for (const [automation, points] of timelines(history))
		for (let end = 0; end < points.length; end++) {
			if (!points[end].failed || points[end + 1]?.failed) continue;
			const { start, after } = streakBefore(points, end);
			const resolved = points[end + 1];
			if (!resolved)
				periods(automation, after, Math.floor((now - points[start].at) / remindAfterMs) - 2);
			else if (now - resolved.at >= remindAfterMs)
				periods(
					automation,
					after,
					Math.floor((resolved.at - points[start].at) / remindAfterMs) + 1,
				);
		}
	return keys;
}
