/**
 * GET /bundle/events when a bundle has a run stream (runStream.ts): the stream's runs and the runs
 * recorded by tests, merged newest first, computed a page at a time. A year of runs is never built:
 * the answer is a lazy list that the core pages (pagination.ts) and renders one page of.
 */
import { clockOf, runAt, streamRecord, streamStepOf, streamsOf, visibleRuns } from './runStream';
import type { RunRecord, RunStepRecord } from './runTypes';
import type { EmulatorState } from './types';

/** A list that knows its length and gives a slice on demand (what `paginate` reads). */
export interface LazyList {
	readonly lazy: true;
	readonly length: number;
	slice(from: number, to: number): unknown[];
}

export const isLazyList = (value: unknown): value is LazyList =>
	typeof value === 'object' && value !== null && (value as { lazy?: unknown }).lazy === true;

interface Source {
	length: number;
	at(position: number): RunRecord;
	/** The date of the run at `position`, without building it. */
	dateAt(position: number): number;
}

const newer = (a: RunRecord, b: RunRecord) =>
	a.dateCreated > b.dateCreated || (a.dateCreated === b.dateCreated && a.id > b.id);

/**
 * The runs of `bundleIds` as a lazy list, or undefined when none of them has a stream (the list is
 * then the recorded runs alone, as before). `recorded`: their recorded runs, newest first.
 */
export function streamedRuns(
	state: EmulatorState,
	bundleIds: number[],
	recorded: RunRecord[],
	render: (run: RunRecord) => unknown,
): LazyList | undefined {
	const streams = streamsOf(state);
	const streamed = bundleIds.filter((id) => streams.has(id));
	if (streamed.length === 0) return undefined;
	const now = clockOf(state);
	const sources: Source[] = streamed.map((id) => {
		const visible = visibleRuns(streams.get(id)!, id, now);
		const stepIds = state.bundles.get(id)?.stepIds ?? [];
		return {
			length: visible.length,
			at: (p) => streamRecord(visible.at(p), now, stepIds),
			dateAt: (p) => visible.at(p).start,
		};
	});
	if (recorded.length)
		sources.push({
			length: recorded.length,
			at: (p) => recorded[p],
			dateAt: (p) => recorded[p].dateCreated,
		});
	const length = sources.reduce((sum, source) => sum + source.length, 0);
	return {
		lazy: true,
		length,
		slice: (from, to) => mergeSlice(sources, from, Math.min(to, length)).map(render),
	};
}

/** Positions [from, to) of the sources merged newest first (one source: read directly). */
function mergeSlice(sources: Source[], from: number, to: number): RunRecord[] {
	const out: RunRecord[] = [];
	if (sources.length === 1) {
		for (let p = Math.max(0, from); p < to; p++) out.push(sources[0].at(p));
		return out;
	}
	const cursor = skip(sources, from);
	const head = sources.map((source, k) =>
		cursor[k] < source.length ? source.at(cursor[k]) : undefined,
	);
	for (let p = cursor.reduce((sum, c) => sum + c, 0); p < to; p++) {
		let best = -1;
		for (let k = 0; k < head.length; k++)
			if (head[k] && (best < 0 || newer(head[k]!, head[best]!))) best = k;
		if (best < 0) break;
		if (p >= from) out.push(head[best]!);
		cursor[best]++;
		head[best] = cursor[best] < sources[best].length ? sources[best].at(cursor[best]) : undefined;
	}
	return out;
}

/** How many of a source's runs (newest first) are dated after `t`. */
function newerThan(source: Source, t: number): number {
	let lo = 0;
	let hi = source.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (source.dateAt(mid) > t) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/**
 * Where each source stands once `from` runs of the merged list are passed, or just before: the
 * runs dated after the latest date `t` that leaves at most `from` runs newer (runs dated exactly `t`
 * are left to the merge). A bisection over dates, so that a deep page costs no walk from the top.
 */
function skip(sources: Source[], from: number): number[] {
	const filled = sources.filter((source) => source.length > 0);
	if (from <= 0 || filled.length === 0) return sources.map(() => 0);
	let lo = Math.min(...filled.map((source) => source.dateAt(source.length - 1))) - 1;
	let hi = Math.max(...filled.map((source) => source.dateAt(0)));
	const newer = (t: number) => sources.reduce((sum, source) => sum + newerThan(source, t), 0);
	while (lo < hi) {
		const mid = Math.floor((lo + hi) / 2);
		if (newer(mid) <= from) hi = mid;
		else lo = mid + 1;
	}
	return sources.map((source) => newerThan(source, lo));
}

/** A stream step listed at the emulator clock now, with its run; undefined for any other id. */
export function streamStepById(
	state: EmulatorState,
	stepId: number,
): { run: RunRecord; step: RunStepRecord } | undefined {
	const ref = streamStepOf(stepId);
	const stream = ref && streamsOf(state).get(ref.bundleId);
	if (!ref || !stream) return undefined;
	const now = clockOf(state);
	const run = runAt(stream, ref.bundleId, ref.index);
	if (run.listedAt > now) return undefined;
	const record = streamRecord(run, now, state.bundles.get(ref.bundleId)?.stepIds ?? []);
	const step = record.steps[ref.level - 1]?.[0];
	return step && { run: record, step };
}
