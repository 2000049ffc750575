/**
 * Run Failed / Run Succeeded, pure: which runs are news between two polls. The baseline holds the
 * ids of runs already seen ended (`known`) and still in progress (`pending`), each with its date,
 * and is kept bounded: past MAX_KNOWN the oldest are dropped and `floor` remembers the newest date
 * dropped; an unknown ended run dated at or before `floor` is old history, never reported.
 */
import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import {
	runDateMs,
	runItem,
	runOutcome,
	stepsOfRun,
	type StepTitles,
} from '../shared/readers/runs';
import { idOf } from '../shared/readers/shapes';

/** Run Failed / Run Succeeded in the Events list. */
export const RUN_OPTIONS = [
	{
		name: 'Run Failed',
		value: 'runFailed',
		description:
			"An automation's run ended with an error (reported once, when it has ended; not the runs before the first poll)",
	},
	{
		name: 'Run Succeeded',
		value: 'runSucceeded',
		description:
			"An automation's run ended without error (reported once, when it has ended; not the runs before the first poll)",
	},
] as const satisfies readonly INodePropertyOptions[];

export type RunEvent = (typeof RUN_OPTIONS)[number]['value'];
export const RUN_EVENTS: readonly RunEvent[] = RUN_OPTIONS.map((option) => option.value);

export const MAX_KNOWN = 500;
export const MAX_PENDING = 200;

/** What the trigger keeps between polls for run events (in the workflow's static data). */
export interface RunBaseline extends IDataObject {
	/** Whose runs (end user and installation filter): another scope starts a new baseline. */
	scope: string;
	/** Run id → date (epoch ms) of runs seen ended. */
	known: Record<string, number>;
	/** Run id → date of runs seen in progress, reported once they end. */
	pending: Record<string, number>;
	/** Unknown ended runs dated at or before this are old (set once `known` overflowed). */
	floor?: number;
}

const EVENT_OF = { failed: 'runFailed', succeeded: 'runSucceeded' } as const;

/**
 * The events of this poll and the next baseline. Without a previous baseline (first poll, or
 * another scope) nothing is reported: ended runs become known, running ones pending (reported when
 * they end).
 */
export function detectRunEvents(
	previous: RunBaseline | undefined,
	scope: string,
	runs: IDataObject[],
	watch: Set<RunEvent>,
	now: number,
): { events: Array<{ event: RunEvent; run: IDataObject }>; next: RunBaseline } {
	const next: RunBaseline = {
		scope,
		known: { ...(previous?.known ?? {}) },
		pending: {},
		...(previous?.floor !== undefined ? { floor: previous.floor } : {}),
	};
	const events: Array<{ event: RunEvent; run: IDataObject }> = [];
	for (const run of runs) {
		const id = idOf(run.id);
		if (id === undefined) continue;
		const key = String(id);
		if (key in next.known) continue;
		const at = runDateMs(run.dateCreated) ?? now;
		const outcome = runOutcome(run, stepsOfRun(run));
		if (outcome !== 'failed' && outcome !== 'succeeded') {
			next.pending[key] = at;
			continue;
		}
		next.known[key] = at;
		if (!previous) continue;
		if (!isNewRun(previous, key, at)) {
			delete next.known[key]; // old history the baseline had let go of: stays forgotten
			continue;
		}
		const event = EVENT_OF[outcome];
		if (watch.has(event)) events.push({ event, run });
	}
	bound(next);
	return { events, next };
}

/**
 * Whether an ended run not known to the baseline is news: not when it is dated at or before the
 * floor (old history), unless the baseline saw it in progress.
 */
export const isNewRun = (previous: RunBaseline, key: string, at: number): boolean =>
	!(key in previous.known) &&
	(key in previous.pending || previous.floor === undefined || at > previous.floor);

/** Keeps the newest MAX_KNOWN ended and MAX_PENDING running runs; `floor` rises past the rest. */
function bound(baseline: RunBaseline): void {
	const known = Object.entries(baseline.known).sort((a, b) => b[1] - a[1]);
	if (known.length > MAX_KNOWN) {
		const dropped = known.slice(MAX_KNOWN);
		baseline.known = Object.fromEntries(known.slice(0, MAX_KNOWN));
		baseline.floor = Math.max(baseline.floor ?? -Infinity, ...dropped.map(([, at]) => at));
	}
	const pending = Object.entries(baseline.pending).sort((a, b) => b[1] - a[1]);
	if (pending.length > MAX_PENDING)
		baseline.pending = Object.fromEntries(pending.slice(0, MAX_PENDING));
}

/** The next baseline, its floor raised to a read's (the runs it left unread are old history). */
export function raiseFloor(next: RunBaseline, floor: number | undefined): RunBaseline {
	if (floor === undefined) return next;
	return { ...next, floor: Math.max(next.floor ?? -Infinity, floor) };
}

/** One output item: the event, the run's id as `runId`, and the run as Run → Get Many gives it. */
export function runEventItem(
	event: RunEvent,
	run: IDataObject,
	extra: IDataObject,
	titles?: StepTitles,
): IDataObject {
	const item = runItem(run, 0, titles);
	return { event, runId: item.id, ...extra, ...item };
}
