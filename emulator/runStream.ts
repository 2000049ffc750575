/**
 * Synthetic run streams: an automation that runs every few minutes for as long as the
 * emulator clock says, computed rather than stored, so a year at 10,000 customers fits in memory.
 *
 * Run `i` of bundle `b` is a pure function of the stream's seed, `b` and `i`: its start (slot `i`
 * after the bundle's own phase, plus a jitter under half a slot), its length (seconds, or 5-40 minutes for a long run that stays
 * in progress across sweeps), when it is listed (at its start, or 3-20 minutes after it ended for a
 * run listed late) and whether it failed (a streak of 1-4 failed runs on some days, then a success:
 * the recovery). Nothing is kept per run: the list, a step's detail and the ground truth are
 * computed from the emulator clock (`state.connections.now()`, moved by `POST /__emulator/clock`).
 * A stream is one small object shared by the bundles it was started on.
 */
import { RUN_STATUS, type RunRecord, type RunStepRecord } from './runTypes';
import type { EmulatorState } from './types';

export interface StreamSpec {
	/** Runs a day per automation (1-2880). Default 50. */
	runsPerDay?: number;
	/** Seed of every pseudo-random choice. Default 1. */
	seed?: number;
	/** When run 0 starts (ISO or epoch ms, emulator clock). Default: the emulator clock now. */
	origin?: string | number;
	/** Share of days (blocks of max(8, runsPerDay) runs) with an incident. Default 0.3. */
	incidentShare?: number;
	/** Share of runs in progress for 5-40 minutes. Default 0.04. */
	longShare?: number;
	/** Share of runs listed 3-20 minutes after they ended. Default 0.02. */
	lateShare?: number;
}

export interface Stream {
	runsPerDay: number;
	slotMs: number;
	seed: number;
	origin: number;
	block: number;
	incidentShare: number;
	longShare: number;
	lateShare: number;
}

/** One run of a stream, as the clock will see it. */
export interface StreamRun {
	index: number;
	id: number;
	bundleId: number;
	start: number;
	end: number;
	listedAt: number;
	failed: boolean;
}

const MINUTE = 60_000;
const SHORT = [5_000, 90_000];
const LONG = [5 * MINUTE, 40 * MINUTE];
const LATE = [3 * MINUTE, 20 * MINUTE];
/** The longest a run may take to be both ended and listed after its start: 60 minutes. */
export const STREAM_HORIZON_MS = LONG[1] + LATE[1];
/** Stream run ids: BASE + index × 2^20 + bundle id (14 digits, apart from recorded runs; step ids 15, the most the routes take). */
export const STREAM_RUN_BASE = 10_000_000_000_000;
export const STREAM_STEP_BASE = 100_000_000_000_000;
const BUNDLES = 2 ** 20;
const LEVELS = 4;

const mix = (x: number) => {
	let a = Math.imul(x ^ (x >>> 16), 0x7feb352d);
	a = Math.imul(a ^ (a >>> 15), 0x846ca68b);
	return (a ^ (a >>> 16)) >>> 0;
};

/** A number in [0, 1) fixed by the stream's seed, the bundle, an index and what it decides. */
function unit(s: Stream, bundleId: number, index: number, salt: number): number {
	let h = mix(s.seed ^ Math.imul(salt, 0x9e3779b9));
	h = mix(h ^ bundleId);
	h = mix(h ^ index);
	h = mix(h ^ Math.floor(index / 4294967296));
	return h / 4294967296;
}
const between = ([min, max]: number[], u: number) => min + Math.floor(u * (max - min));

export const runIdOf = (bundleId: number, index: number) =>
	STREAM_RUN_BASE + index * BUNDLES + bundleId;

/** The bundle and index of a stream run id, or undefined for another id. */
export function streamRunOf(id: number): { bundleId: number; index: number } | undefined {
	if (!Number.isSafeInteger(id) || id < STREAM_RUN_BASE || id >= STREAM_STEP_BASE) return undefined;
	const offset = id - STREAM_RUN_BASE;
	return { bundleId: offset % BUNDLES, index: Math.floor(offset / BUNDLES) };
}

/** The run and level (1-based) of a stream step id, or undefined for another id. */
export function streamStepOf(id: number) {
	if (!Number.isSafeInteger(id) || id < STREAM_STEP_BASE) return undefined;
	const offset = id - STREAM_STEP_BASE;
	const run = streamRunOf(STREAM_RUN_BASE + Math.floor(offset / LEVELS));
	return run && { ...run, level: (offset % LEVELS) + 1 };
}

/** The failed streak of a block (a day of runs), if it has one: it ends inside the block. */
export function streakOf(s: Stream, bundleId: number, block: number) {
	if (unit(s, bundleId, block, 6) >= s.incidentShare) return undefined;
	const from = block * s.block + 1 + Math.floor(unit(s, bundleId, block, 7) * (s.block - 6));
	return { from, length: 1 + Math.floor(unit(s, bundleId, block, 8) * 4) };
}

export function failsAt(s: Stream, bundleId: number, index: number): boolean {
	const streak = streakOf(s, bundleId, Math.floor(index / s.block));
	return !!streak && index >= streak.from && index < streak.from + streak.length;
}

/**
 * When run 0 of a bundle starts: the stream's origin plus the bundle's own phase (under one block
 * of runs), so that automations neither run in step nor fail at the same hour of the day.
 */
export const startOf = (s: Stream, bundleId: number) =>
	s.origin + Math.floor(unit(s, bundleId, 0, 9) * s.block * s.slotMs);

export function runAt(s: Stream, bundleId: number, index: number): StreamRun {
	const start =
		startOf(s, bundleId) +
		index * s.slotMs +
		Math.floor((unit(s, bundleId, index, 1) * s.slotMs) / 2);
	const long = unit(s, bundleId, index, 2) < s.longShare;
	const end = start + between(long ? LONG : SHORT, unit(s, bundleId, index, 3));
	const late = unit(s, bundleId, index, 4) < s.lateShare;
	return {
		index,
		id: runIdOf(bundleId, index),
		bundleId,
		start,
		end,
		listedAt: late ? end + between(LATE, unit(s, bundleId, index, 5)) : start,
		failed: failsAt(s, bundleId, index),
	};
}

/** When a run is known to a reader: ended and listed. */
export const knownAt = (run: StreamRun) => Math.max(run.end, run.listedAt);

/** The runs listed at `now`, newest first (start, then id): run i starts before run i + 1. */
export function visibleRuns(s: Stream, bundleId: number, now: number) {
	const origin = startOf(s, bundleId);
	if (now < origin) return { length: 0, at: (): StreamRun => runAt(s, bundleId, 0) };
	let last = Math.floor((now - origin) / s.slotMs);
	if (runAt(s, bundleId, last).start > now) last--;
	// Every run before `settled` started more than the horizon ago: it is listed.
	const settled = Math.max(0, Math.floor((now - STREAM_HORIZON_MS - origin) / s.slotMs) - 1);
	const recent: StreamRun[] = [];
	for (let i = last; i >= settled; i--) {
		const run = runAt(s, bundleId, i);
		if (run.listedAt <= now) recent.push(run);
	}
	return {
		length: recent.length + settled,
		at: (p: number) =>
			p < recent.length ? recent[p] : runAt(s, bundleId, settled - 1 - (p - recent.length)),
	};
}

/** A stream run as a run record at `now` (one level per bundle step, as a recorded run's default). */
export function streamRecord(run: StreamRun, now: number, stepIds: number[]): RunRecord {
	const status =
		now < run.end ? RUN_STATUS.inProgress : run.failed ? RUN_STATUS.failed : RUN_STATUS.succeeded;
	const levels = Math.min(LEVELS, Math.max(1, stepIds.length));
	const steps: RunStepRecord[][] = [];
	for (let level = 1; level <= levels; level++)
		steps.push([streamStep(run, level, level === levels ? status : RUN_STATUS.succeeded, stepIds)]);
	return { id: run.id, bundleId: run.bundleId, status, event: 6, dateCreated: run.start, steps };
}

function streamStep(run: StreamRun, level: number, status: number, stepIds: number[]) {
	const failed = status === RUN_STATUS.failed;
	const id = STREAM_STEP_BASE + (run.id - STREAM_RUN_BASE) * LEVELS + level - 1;
	return {
		id,
		eventId: run.id,
		triggerActionId: stepIds[level - 1] ?? 100000 + level,
		resultMessage: failed || status === RUN_STATUS.inProgress ? null : `Step ${level} done`,
		status,
		error: failed ? 'Emulated step error' : null,
		hasActiveRerun: false,
		dateCreated: run.start,
		behaviourType: level === 1 ? 'webhook' : null,
		token: `${Math.floor(run.start / 1000)}_v78_AN_z_${level}`,
		warning: null,
		warningData: [],
		stepLevel: level,
		detail: {
			requestData: { level, attempt: 1 },
			responseData: failed ? { error: 'Emulated step error' } : { ok: true },
		},
	};
}

/** The streams of one emulator, by bundle (keyed by its state, as the list lag is). */
const registries = new WeakMap<EmulatorState, Map<number, Stream>>();

export function streamsOf(state: EmulatorState): Map<number, Stream> {
	let streams = registries.get(state);
	if (!streams) registries.set(state, (streams = new Map()));
	return streams;
}

export const clockOf = (state: EmulatorState) => state.connections.now();

const share = (value: unknown, fallback: number, name: string) => {
	const n = value === undefined ? fallback : Number(value);
	if (!(n >= 0 && n <= 1)) throw new Error(`${name} must be a share from 0 to 1`);
	return n;
};

/** A stream from a spec (validated); `now` is the default origin. */
export function makeStream(spec: StreamSpec, now: number): Stream {
	const runsPerDay = spec.runsPerDay ?? 50;
	if (!Number.isInteger(runsPerDay) || runsPerDay < 1 || runsPerDay > 2880)
		throw new Error('runsPerDay must be a whole number from 1 to 2880');
	const origin = spec.origin === undefined ? now : new Date(spec.origin).getTime();
	if (!Number.isFinite(origin)) throw new Error('origin must be a date');
	const seed = spec.seed ?? 1;
	if (!Number.isInteger(seed)) throw new Error('seed must be an integer');
	return {
		runsPerDay,
		slotMs: Math.floor(86_400_000 / runsPerDay),
		seed,
		origin,
		block: Math.max(8, runsPerDay),
		incidentShare: share(spec.incidentShare, 0.3, 'incidentShare'),
		longShare: share(spec.longShare, 0.04, 'longShare'),
		lateShare: share(spec.lateShare, 0.02, 'lateShare'),
	};
}

/** Starts one stream on these bundles (each must exist, with an id under 2^20). */
export function startStream(state: EmulatorState, bundleIds: number[], spec: StreamSpec): Stream {
	return attachStream(state, bundleIds, makeStream(spec, clockOf(state)));
}

/** Puts these bundles on `stream` (one object for a whole fleet). */
export function attachStream(state: EmulatorState, bundleIds: number[], stream: Stream): Stream {
	for (const id of bundleIds) {
		if (!state.bundles.has(id)) throw new Error(`unknown bundle ${id}`);
		if (id >= BUNDLES) throw new Error(`bundle ${id}: a stream needs a bundle id under ${BUNDLES}`);
	}
	for (const id of bundleIds) streamsOf(state).set(id, stream);
	return stream;
}
