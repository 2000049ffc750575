/**
 * Run → Get New: what one customer's memory holds and how a sweep reads against it. Pure (no n8n
 * calls): getNew.operation.ts loads it from the workflow's static data and stores it back, and
 * gates the new runs through n8n's deduplication store (see docs/runs.md "Watch every customer").
 *
 * A customer's memory (per End User and scope): the newest ended runs already handled (id and
 * date), the runs seen in progress, and a *floor*: the newest run ever dropped from the memory. A
 * run dated at or before the floor is old history, never reported.
 */
import type { IDataObject } from 'n8n-workflow';

import { isEnded, runDateMs, runIdOf } from '../../../shared/readers/runs';

/** [run id, date in epoch ms (NaN when unreadable)] */
export type RunMark = [string, number];

export interface EndUserMemory {
	/** Ended runs already handled, newest first. */
	ended: RunMark[];
	/** Runs seen in progress (not handled yet), newest first. */
	pending: RunMark[];
	/** The newest ended run dropped from `ended`; runs at or before it are old history. */
	floor?: RunMark;
	/** When this customer was last swept (epoch ms). */
	sweptAt: number;
}

/** The node's whole memory in the workflow's static data (key `getNewRuns`). */
export interface RunMemory {
	version: 1;
	customers: Record<string, EndUserMemory>;
}

export interface MemoryLimits {
	/** Ended runs remembered per customer (and scope). */
	perEndUser: number;
	/** Ended runs remembered in total, over every customer. */
	total: number;
}

/** Runs in progress remembered per customer at most (the oldest forgotten first). */
export const MAX_PENDING = 100;

export const DEFAULT_LIMITS: MemoryLimits = { perEndUser: 200, total: 100000 };

/** How a customer's runs are read against its memory. */
export interface Reading {
	/** The zone of the service's dates, in minutes east of UTC (see runDateMs). */
	offset: number;
	limits: MemoryLimits;
}

export const markOf = (run: IDataObject, offset: number): RunMark => [
	String(runIdOf(run) ?? run.id ?? ''),
	runDateMs(run.dateCreated, offset) ?? Number.NaN,
];

/** Newer first: by date (unreadable dates last), then by id (numeric when both are). */
export function newerFirst(a: RunMark, b: RunMark): number {
	const da = Number.isNaN(a[1]) ? -Infinity : a[1];
	const db = Number.isNaN(b[1]) ? -Infinity : b[1];
	if (da !== db) return db - da;
	const na = Number(a[0]);
	const nb = Number(b[0]);
	if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return nb - na;
	return a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0;
}

/**
 * Whether a run is at or before the floor (old history). A run with an unreadable date never is.
 */
function belowFloor(mark: RunMark, floor: RunMark | undefined): boolean {
	if (!floor || Number.isNaN(mark[1])) return false;
	return newerFirst(mark, floor) >= 0;
}

/** Whether this ended run was already handled (remembered, or old history). */
export function isKnown(memory: EndUserMemory | undefined, mark: RunMark): boolean {
	if (!memory) return false;
	return memory.ended.some(([id]) => id === mark[0]) || belowFloor(mark, memory.floor);
}

/**
 * Whether the read may stop after this page. Only when everything read so far is newest first (so
 * the rest of the list is older), and then either: the runs read already fill the memory (older
 * ones would be below the new floor anyway), or this page holds only ended runs already handled,
 * every run remembered in progress has been met or passed, and `contextRead` (Group Into Incidents:
 * the runs before the new ones) is satisfied. Otherwise the next page is read (and a list in
 * another order is read whole).
 */
export function enoughRead(
	memory: EndUserMemory | undefined,
	runs: IDataObject[],
	page: IDataObject[],
	{ offset, limits }: Reading,
	contextRead: (runs: IDataObject[]) => boolean = () => true,
): boolean {
	const marks = runs.map((run) => markOf(run, offset));
	for (let i = 0; i < marks.length; i++) {
		if (Number.isNaN(marks[i][1])) return false;
		if (i > 0 && marks[i][1] > marks[i - 1][1]) return false;
	}
	if (runs.filter(isEnded).length >= limits.perEndUser) return true;
	if (!memory || page.length === 0) return false;
	if (!page.every((run) => isEnded(run) && isKnown(memory, markOf(run, offset)))) return false;
	const met = new Set(marks.map(([id]) => id));
	const oldestRead = marks[marks.length - 1][1];
	if (!memory.pending.every(([id, at]) => met.has(id) || Number.isNaN(at) || at > oldestRead))
		return false;
	return contextRead(runs);
}

export interface SweepResult {
	/** Ended runs not handled before, oldest first. */
	fresh: IDataObject[];
	/** The customer's memory after this sweep (store it only once the sweep's output is decided). */
	next: EndUserMemory;
}

/**
 * Compares one read of a customer's runs with its memory. `complete` says whether the whole list
 * was read (then a remembered run in progress that is no longer listed is forgotten).
 */
export function sweepEndUser(
	memory: EndUserMemory | undefined,
	runs: IDataObject[],
	{ offset, limits }: Reading,
	now: number,
	complete: boolean,
): SweepResult {
	const ended = new Map<string, RunMark>((memory?.ended ?? []).map((mark) => [mark[0], mark]));
	const pending = new Map<string, RunMark>((memory?.pending ?? []).map((mark) => [mark[0], mark]));
	const fresh: Array<{ run: IDataObject; mark: RunMark }> = [];
	const listed = new Set<string>();
	for (const run of runs) {
		const mark = markOf(run, offset);
		if (mark[0] === '' || listed.has(mark[0])) continue;
		listed.add(mark[0]);
		if (!isEnded(run)) {
			if (!ended.has(mark[0]) && !belowFloor(mark, memory?.floor)) pending.set(mark[0], mark);
			continue;
		}
		pending.delete(mark[0]);
		if (!isKnown(memory, mark)) fresh.push({ run, mark });
		ended.set(mark[0], mark);
	}
	if (complete) for (const id of [...pending.keys()]) if (!listed.has(id)) pending.delete(id);

	const next: EndUserMemory = {
		ended: [...ended.values()].sort(newerFirst),
		pending: [...pending.values()].sort(newerFirst).slice(0, MAX_PENDING),
		floor: memory?.floor,
		sweptAt: now,
	};
	trim(next, limits.perEndUser);
	// Runs beyond what the memory can hold (a first sweep of a long history): the oldest are old
	// history.
	const kept = new Set(next.ended.map(([id]) => id));
	return {
		fresh: fresh
			.filter(({ mark }) => kept.has(mark[0]))
			.sort((a, b) => newerFirst(b.mark, a.mark))
			.map(({ run }) => run),
		next,
	};
}

/** Keeps the newest `max` ended runs; the newest one dropped becomes the floor. */
function trim(memory: EndUserMemory, max: number): void {
	if (memory.ended.length <= max) return;
	const dropped = memory.ended.slice(max);
	memory.ended = memory.ended.slice(0, max);
	const newestDropped = dropped.find((mark) => !Number.isNaN(mark[1]));
	if (newestDropped && (!memory.floor || newerFirst(newestDropped, memory.floor) < 0))
		memory.floor = newestDropped;
	memory.pending = memory.pending.filter((mark) => !belowFloor(mark, memory.floor));
}

/**
 * The total bound: while the memory holds more ended runs than `total`, every customer keeps an
 * equal share of its newest (at least one), raising floors. Nothing is reported twice for it; a run
 * ending after more newer runs than the share have ended is no longer reported.
 */
export function boundMemory(memory: RunMemory, limits: MemoryLimits): void {
	const customers = Object.values(memory.customers);
	const count = () => customers.reduce((sum, customer) => sum + customer.ended.length, 0);
	if (count() <= limits.total) return;
	const share = Math.max(1, Math.floor(limits.total / Math.max(1, customers.length)));
	for (const customer of customers) trim(customer, share);
}

/** The node's memory from static data (a fresh one when absent or of another shape). */
export function memoryOf(stored: unknown): RunMemory {
	const candidate = stored as RunMemory | undefined;
	return candidate?.version === 1 && typeof candidate.customers === 'object'
		? candidate
		: { version: 1, customers: {} };
}
