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
		return { length: visible.length, at: (p) => streamRecord(visible.at(p), now, stepIds) };
	});
	if (recorded.length) sources.push({ length: recorded.length, at: (p) => recorded[p] });
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
	const cursor = sources.map(() => 0);
	const head = sources.map((source) => (source.length ? source.at(0) : undefined));
	for (let p = 0; p < to; p++) {
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
