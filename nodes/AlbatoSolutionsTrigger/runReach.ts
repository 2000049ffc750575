/**
 * How far back one poll reads the runs, for Run Failed / Run Succeeded and Automation Failing /
 * Automation Recovered (docs/trigger.md, "How far a poll reads the runs"). Pure: it goes by the
 * service's own run dates, never by a clock.
 *
 * The list is read newest first, a page at a time. The read stops after a page only while every
 * run read so far is newest first (a list in another order is read whole), and then once each kind
 * that shares the read has what it needs (ReadNeed), or once MAX_READ_BACK ended runs were read.
 */
import type { IDataObject } from 'n8n-workflow';

import { incidentContextRead } from '../shared/readers/incidents';
import { DEFAULT_LATENESS_MINUTES, isEnded, runDateMs, runPoint } from '../shared/readers/runs';
import { idOf } from '../shared/readers/shapes';
import { isNewRun, MAX_KNOWN, type RunBaseline } from './runEvents';

/** How long after its date a run may end, or first be listed, and still be read: 60 minutes. */
export const LATENESS_MS = DEFAULT_LATENESS_MINUTES * 60_000;

/**
 * Ended runs one poll reads at most: a catch-up after the trigger was off (a week at 50 runs a day
 * on two automations is 700). The runs beyond are old history, as before a first poll.
 */
export const MAX_READ_BACK = 4 * MAX_KNOWN;

/** How long a run seen in progress is followed: the read reaches back to it for a day. */
export const FOLLOW_MS = 24 * 60 * 60_000;

/** What one kind needs of the shared read. */
export interface ReadNeed {
	/** Its baseline; undefined on its first poll (the newest MAX_KNOWN ended runs are read). */
	baseline: RunBaseline | undefined;
	/** Automation events: each automation's state before its new runs must be read too. */
	incidents: boolean;
}

/** A read's stopping rule, one predicate per list read, and the floor it leaves. */
export interface Reach {
	/** A fresh `enough` for one list (listRuns): true ends the read after this page. */
	enough: () => (runs: IDataObject[]) => boolean;
	/**
	 * The date at or before which runs were left unread because the read stopped at a depth (first
	 * poll, or MAX_READ_BACK): old history for the baselines (their floor rises to it).
	 */
	floor: () => number | undefined;
}

const FIRST_POLL: ReadNeed = { baseline: undefined, incidents: false };

/** The rule for these needs; none (Fetch Test Event): a first poll's read. */
export function reachOf(needs: readonly ReadNeed[]): Reach {
	let floor: number | undefined;
	const all = needs.length > 0 ? needs : [FIRST_POLL];
	return {
		enough: () => (runs) => {
			const oldest = oldestIfNewestFirst(runs);
			if (oldest === undefined) return false;
			const ended = runs.filter(isEnded).length;
			const results = all.map((need) => satisfied(need, runs, oldest, ended));
			if (ended < MAX_READ_BACK && !results.every(Boolean)) return false;
			if (ended >= MAX_READ_BACK || results.includes('depth'))
				floor = Math.max(floor ?? -Infinity, oldest);
			return true;
		},
		floor: () => floor,
	};
}

/** The oldest date read, when every run read so far is dated and newest first; else undefined. */
function oldestIfNewestFirst(runs: IDataObject[]): number | undefined {
	let previous = Infinity;
	for (const run of runs) {
		const at = runDateMs(run.dateCreated);
		if (at === undefined || at > previous) return undefined;
		previous = at;
	}
	return runs.length > 0 ? previous : undefined;
}

/** Whether one kind has what it needs: 'depth' when a first poll read its MAX_KNOWN ended runs. */
function satisfied(
	{ baseline, incidents }: ReadNeed,
	runs: IDataObject[],
	oldest: number,
	ended: number,
): boolean | 'depth' {
	if (!baseline) return ended >= MAX_KNOWN ? 'depth' : false;
	const from = reachBack(baseline);
	if (from === undefined || oldest >= from) return false;
	if (!incidents) return true;
	const isFresh = (run: IDataObject) => {
		const id = idOf(run.id);
		const at = runDateMs(run.dateCreated);
		return isEnded(run) && id !== undefined && isNewRun(baseline, String(id), at ?? Number.NaN);
	};
	return incidentContextRead(runs, (run) => runPoint(run, 0), isFresh);
}

/**
 * The oldest date a poll must read down to (runs dated before it are known, or old history): the
 * newest run the baseline holds less the lateness, or the oldest run it follows in progress if
 * older. Undefined when the baseline holds no run (the list is read up to MAX_READ_BACK).
 */
export function reachBack(baseline: RunBaseline): number | undefined {
	const pending = Object.values(baseline.pending ?? {}).filter(Number.isFinite);
	const dates = [...Object.values(baseline.known ?? {}).filter(Number.isFinite), ...pending];
	if (dates.length === 0) return undefined;
	const newest = Math.max(...dates);
	const followed = pending.filter((at) => at >= newest - FOLLOW_MS);
	return Math.min(newest - LATENESS_MS, ...followed);
}
