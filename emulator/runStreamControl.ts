/**
 * Control routes of the run streams (runStream.ts): start one on some bundles, and read the ground
 * truth of a time window, so a benchmark can count runs returned twice or missed, and incidents
 * opened and resolved, against what happened. Computed, like the streams: nothing is stored.
 */
import { recordsOf } from './indexedMap';
import {
	clockOf,
	knownAt,
	runAt,
	runIdOf,
	startOf,
	startStream,
	STREAM_HORIZON_MS,
	streakOf,
	streamsOf,
	type Stream,
	type StreamRun,
	type StreamSpec,
} from './runStream';
import type { EmulatorState } from './types';

export const RUN_STREAM_ROUTES = [
	'POST   /__emulator/runs/stream         {"bundleIds" | "customerIds" | "idPrefix", "runsPerDay"? = 50, "seed"?, "origin"?, "incidentShare"?, "longShare"?, "lateShare"?}: a computed run stream on those automations',
	'POST   /__emulator/runs/truth          {"bundleIds" | "customerIds" | "idPrefix", "from", "to", "runIds"?}: the streams\' runs known (ended and listed) in [from, to), and the incidents opened and resolved',
	'GET    /__emulator/runs/streams        how many bundles have a stream, and how many streams there are',
];

/** Who a control call is about: bundle ids, a partner's customer ids, or every customer of a prefix. */
interface Selection {
	bundleIds?: unknown;
	customerIds?: unknown;
	idPrefix?: unknown;
}

function bundlesOf(state: EmulatorState, partner: string, body: Selection): number[] {
	if (Array.isArray(body.bundleIds)) return body.bundleIds.map(Number);
	const ids = Array.isArray(body.customerIds) ? new Set(body.customerIds.map(String)) : undefined;
	const prefix = typeof body.idPrefix === 'string' ? body.idPrefix : undefined;
	if (!ids && prefix === undefined)
		throw new Error('give "bundleIds", "customerIds" or "idPrefix"');
	const out: number[] = [];
	for (const user of state.endUsers.values()) {
		if (user.partner !== partner) continue;
		if (ids ? !ids.has(user.id) : !user.id.startsWith(prefix!)) continue;
		for (const installation of recordsOf(state.installations, user.sub))
			out.push(...installation.bundleIds);
	}
	return out;
}

/** What happened in [from, to) on the emulator clock (epoch ms in; ISO and ms out). */
export interface Truth {
	now: string;
	from: number;
	to: number;
	bundles: number;
	/** Runs that became known (ended and listed) in the window: what a sweep can return. */
	runs: number;
	failedRuns: number;
	listedLate: number;
	/** Runs started before `to` still in progress at `to`. */
	inProgressAtTo: number;
	/** [bundleId, run id of the streak's first failed run, when it was known]. */
	opened: [number, number, number][];
	/** [bundleId, run id of the success after the streak, first failed run id, when it was known]. */
	resolved: [number, number, number, number][];
	runIds?: number[];
}

const timeOf = (value: unknown, name: string) => {
	const ms = typeof value === 'number' ? value : new Date(String(value)).getTime();
	if (!Number.isFinite(ms)) throw new Error(`${name} must be a date (ISO or epoch ms)`);
	return ms;
};

export function truthOf(
	state: EmulatorState,
	bundleIds: number[],
	window: { from: number; to: number },
	withIds = false,
): Truth {
	const truth: Truth = {
		now: new Date(clockOf(state)).toISOString(),
		...window,
		bundles: 0,
		runs: 0,
		failedRuns: 0,
		listedLate: 0,
		inProgressAtTo: 0,
		opened: [],
		resolved: [],
		...(withIds ? { runIds: [] } : {}),
	};
	for (const bundleId of bundleIds) {
		const stream = streamsOf(state).get(bundleId);
		if (!stream) continue;
		truth.bundles++;
		truthOfBundle(stream, bundleId, truth);
	}
	return truth;
}

/**
 * One bundle's share of the truth. An incident opens at a failed run whose previous run (by start)
 * succeeded and is resolved by the success after the streak; either is known once that run and the
 * one before it are both known.
 */
function truthOfBundle(s: Stream, bundleId: number, truth: Truth): void {
	const { from, to } = truth;
	let i = Math.max(0, Math.floor((from - STREAM_HORIZON_MS - startOf(s, bundleId)) / s.slotMs) - 1);
	let prev = i > 0 ? runAt(s, bundleId, i - 1) : undefined;
	for (; ; i++) {
		const run = runAt(s, bundleId, i);
		if (run.start >= to) break;
		countRun(run, truth);
		const eventKnown = Math.max(knownAt(run), prev ? knownAt(prev) : 0);
		if (eventKnown >= from && eventKnown < to)
			countIncident(s, bundleId, [prev, run], eventKnown, truth);
		prev = run;
	}
}

/** One run in the truth: known (ended and listed) in the window, or in progress at its end. */
function countRun(run: StreamRun, truth: Truth): void {
	const known = knownAt(run);
	if (run.end >= truth.to) truth.inProgressAtTo++;
	if (known < truth.from || known >= truth.to) return;
	truth.runs++;
	if (run.failed) truth.failedRuns++;
	if (run.listedAt > run.start) truth.listedLate++;
	truth.runIds?.push(run.id);
}

/** An incident opened (a failure after a success) or resolved (a success after failures). */
function countIncident(
	s: Stream,
	bundleId: number,
	[prev, run]: [StreamRun | undefined, StreamRun],
	eventKnown: number,
	truth: Truth,
): void {
	if (run.failed && !prev?.failed) truth.opened.push([bundleId, run.id, eventKnown]);
	if (!run.failed && prev?.failed) {
		const streak = streakOf(s, bundleId, Math.floor(prev.index / s.block))!;
		truth.resolved.push([bundleId, run.id, runIdOf(bundleId, streak.from), eventKnown]);
	}
}

/** Answers `route` when it is one of these control routes; throws Error → 400. */
export function handleStreamControl(
	state: EmulatorState,
	partner: string,
	route: string,
	body: Record<string, unknown>,
): { status: number; body: unknown } | undefined {
	switch (route) {
		case 'POST /__emulator/runs/stream': {
			const bundleIds = bundlesOf(state, partner, body);
			const stream = startStream(state, bundleIds, body as StreamSpec);
			return { status: 201, body: { bundles: bundleIds.length, stream } };
		}
		case 'POST /__emulator/runs/truth': {
			const window = { from: timeOf(body.from, 'from'), to: timeOf(body.to, 'to') };
			const bundleIds = bundlesOf(state, partner, body);
			return { status: 200, body: truthOf(state, bundleIds, window, body.runIds === true) };
		}
		case 'GET /__emulator/runs/streams': {
			const streams = streamsOf(state);
			return {
				status: 200,
				body: { bundles: streams.size, streams: new Set(streams.values()).size },
			};
		}
		default:
			return undefined;
	}
}
