/**
 * Run → Get New's bounded memory, the rule (docs/runs.md, "Bounded memory: the invariant"). Pure:
 * positions in the service's own list, no clock.
 *
 * A customer's watched runs (the ended runs its sweep records), newest first by their end (endMark),
 * numbered from 0. The
 * frontier is the newest one handled before this sweep (named by static data, or recorded in the
 * store before this sweep's first call). A run may be returned only down to LATE_RUNS positions
 * below the frontier; the store keeps the records of the newest KEPT_RUNS and forgets the others.
 */
import type { IDataObject } from 'n8n-workflow';

import { runDateMs, stepsOfRun } from '../../../shared/readers/runs';
import { markOf, newerFirst, type RunMark } from './runMemory';

/** How many newer watched runs may have been handled before a run that ends or is listed late. */
export const LATE_RUNS = 10;

/**
 * Records kept per customer: twice LATE_RUNS, so a sweep whose read is older than another's by fewer
 * than LATE_RUNS watched runs never meets a record that other one removed.
 */
export const KEPT_RUNS = 2 * LATE_RUNS;

/**
 * A run's end as the service tells it: its newest date, its own or a step's (a step is dated when it
 * runs, so a run that ended late sorts with the runs that ended then; without step dates, its start).
 */
export function endMark(run: IDataObject, offset: number): RunMark {
	const [id, started] = markOf(run, offset);
	const stepDates = stepsOfRun(run).map((step) => runDateMs(step.dateCreated, offset) ?? -Infinity);
	const ended = Math.max(Number.isNaN(started) ? -Infinity : started, ...stepDates);
	return [id, ended === -Infinity ? started : ended];
}

/**
 * Runs listed late among the records the last sweep kept, between two sweeps, that the removal still
 * covers (n8n's store scans its whole list for each record removed, so the removal is kept short).
 */
export const SHIFT_MARGIN = 2;

/** Watched runs, each once by id, newest first by their end (date, then id). */
export function newestFirst(runs: IDataObject[], offset: number): IDataObject[] {
	const byId = new Map<string, { run: IDataObject; mark: RunMark }>();
	for (const run of runs) {
		const mark = endMark(run, offset);
		if (mark[0] !== '' && !byId.has(mark[0])) byId.set(mark[0], { run, mark });
	}
	return [...byId.values()].sort((a, b) => newerFirst(a.mark, b.mark)).map(({ run }) => run);
}

export interface RunWindow {
	/** Position of the newest run handled before (-1: none, a first sweep or a long gap). */
	frontier: number;
	/** Whether this run may be returned (listed, and at most LATE_RUNS below the frontier). */
	returnable: (run: IDataObject) => boolean;
	/**
	 * The runs whose records the store need not keep and may still hold: position KEPT_RUNS or
	 * further, down to where the records the last sweep kept now are (KEPT_RUNS below the frontier,
	 * and SHIFT_MARGIN more for runs listed late between them); with no frontier, all of them.
	 */
	forgotten: IDataObject[];
}

/** The window of one customer's read: `watched` newest first, `handledBefore` as defined above. */
export function runWindow(
	watched: IDataObject[],
	handledBefore: (run: IDataObject) => boolean,
): RunWindow {
	const frontier = watched.findIndex(handledBefore);
	const position = new Map(watched.map((run, index) => [run, index]));
	return {
		frontier,
		returnable: (run) => {
			const at = position.get(run);
			return at !== undefined && (frontier === -1 || at <= frontier + LATE_RUNS);
		},
		forgotten: watched.slice(
			KEPT_RUNS,
			frontier === -1 ? undefined : frontier + KEPT_RUNS + SHIFT_MARGIN,
		),
	};
}
