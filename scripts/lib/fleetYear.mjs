// `npm run bench:fleet -- --weeks N [--runs-per-day 50]`: the fleet sweep (Run → Get New with Group
// Into Incidents) over N simulated weeks at real run volume (`--minutes M`: as many as end within M).
// The emulator serves every automation a computed run stream (emulator/runStream.ts) from its clock,
// which the bench freezes and moves: per week the clocks jump a week and a catch-up sweep reads that
// week's runs (as after an outage), then two sweeps 15 simulated minutes apart (the steady state).
// The workers' clock moves with it (scripts/lib/workerClock.mjs). After each sweep the emulator's
// ground truth of the window (`POST /__emulator/runs/truth`) is set against what it returned.
//
// Per week: sweep seconds, the memory (store rows, records, bytes; static data bytes), store call p50
// and max, runs twice and missed, incidents opened and resolved (the truth's too), failed items.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import {
	CATCH_UP,
	JOBS,
	LATENESS_MS,
	ONLY,
	RUNS_PER_DAY,
	WEEKS,
	WEEKS_BUDGET_MS,
	WORKER_CLOCK,
} from './fleetOptions.mjs';
import { storeTraceReport } from './storeTraceReport.mjs';
import { workerClock } from './workerClock.mjs';

const SWEEP_NODE = 'New failures, as incidents';
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const WEEK = 7 * DAY;
const STEADY_GAP = 15 * MINUTE;

/** The emulator's clock frozen at `at`, the workers' moved to read it too. */
async function setClocks(bench, clock, at) {
	await bench.emulator.control('POST', '/clock', { now: new Date(at).toISOString(), freeze: true });
	await clock.set(at);
}

/** What a sweep said and failed on, from one batch execution's run data. */
export function collect(runData, out) {
	const task = runData?.[SWEEP_NODE]?.[0];
	if (task?.error && !task.data) {
		const items = runData['One item per customer']?.[0]?.data?.main?.[0]?.length ?? 1;
		count(out.reasons, reasonOf(task.error.message), items);
	}
	for (const item of task?.data?.main?.[0] ?? []) {
		const { event } = item.json;
		count(out.events, event, 1);
		const runId = item.json.run?.id ?? item.json.firstFailedRunId;
		if (event === 'incidentOpened') out.keys.push(`opened ${runId}`);
		if (event === 'incidentResolved') out.keys.push(`resolved ${runId}`);
	}
	for (const item of task?.data?.main?.[1] ?? []) count(out.reasons, reasonOf(item.json.error), 1);
}

const count = (map, key, n) => (map[key] = (map[key] ?? 0) + n);
/** An error message with its numbers as N, so that one cause is one line. */
const reasonOf = (message) =>
	String(message ?? 'no message')
		.replace(/\d[\d,.]*/g, 'N')
		.slice(0, 160);

/** What n8n keeps for the sweep's batch workflow: its dedup store rows and its static data. */
async function memoryOf(bench) {
	const id = JOBS.fleetSweep.batchId;
	const [[rows, records, bytes] = []] = await bench.postgres.psql(
		`SELECT count(*), coalesce(sum(CASE WHEN json_typeof(value::json->'data') = 'array' THEN json_array_length(value::json->'data') ELSE 0 END), 0), coalesce(sum(octet_length(value::text)), 0) FROM processed_data WHERE "workflowId" = '${id}'`,
	);
	const [[staticBytes] = []] = await bench.postgres.psql(
		`SELECT coalesce(octet_length("staticData"::text), 0) FROM workflow_entity WHERE id = '${id}'`,
	);
	return {
		storeRows: Number(rows ?? 0),
		storeRecords: Number(records ?? 0),
		storeBytes: Number(bytes ?? 0),
		staticDataBytes: Number(staticBytes ?? 0),
	};
}

/** What was said against the truth: `seen` each incident key and how often, `due` those unsaid. */
export const newLedger = () => ({
	seen: new Map(),
	due: new Map(),
	twice: 0,
	missed: 0,
	truthKeys: 0,
});

/** Adds a sweep's keys and the truth of its window; counts repeats, and truth due but never said. */
export function settle(ledger, keys, truth, at) {
	const again = [];
	for (const key of keys) {
		ledger.seen.set(key, (ledger.seen.get(key) ?? 0) + 1);
		if (ledger.seen.get(key) > 1) again.push(key);
	}
	for (const [, runId, knownAt] of truth?.opened ?? []) ledger.due.set(`opened ${runId}`, knownAt);
	for (const [, runId, , knownAt] of truth?.resolved ?? [])
		ledger.due.set(`resolved ${runId}`, knownAt);
	let missed = 0;
	for (const [key, knownAt] of ledger.due) {
		if (ledger.seen.has(key)) ledger.due.delete(key);
		else if (knownAt <= at - LATENESS_MS) {
			missed++;
			ledger.due.delete(key);
		}
	}
	ledger.twice += again.length;
	ledger.missed += missed;
	return { twice: again.length, missed, again: again.slice(0, 20) };
}

/** One sweep at simulated time `to`; the truth of [from, to) (none for the first sweep). */
async function sweepAt(bench, clock, customers, { prefix, from, to, kind }, ledger) {
	await setClocks(bench, clock, to);
	const out = { events: {}, reasons: {}, keys: [] };
	const began = Date.now();
	const { figures } = await bench.runJob('fleetSweep', customers, {
		onRun: (runData) => collect(runData, out),
	});
	const ended = Date.now();
	// A worker on a shifted clock stamps its executions' stop in the future: its seconds less the shift.
	const seconds =
		figures.seconds * 1000 > ended - began + MINUTE
			? Math.round((figures.seconds * 1000 - clock.offsetMs) / 100) / 10
			: figures.seconds;
	const truth =
		from === undefined
			? undefined
			: await bench.emulator.control('POST', '/runs/truth', { idPrefix: prefix, from, to });
	const { twice, missed, again } = settle(ledger, out.keys, truth, to);
	const trace = process.env.BENCH_STORE_TRACE
		? await storeTraceReport(process.env.BENCH_STORE_TRACE, began, ended)
		: undefined;
	return {
		kind,
		at: new Date(to).toISOString(),
		seconds,
		failedItems: figures.failedItems,
		failReasons: out.reasons,
		events: out.events,
		twice,
		...(twice > 0 ? { twiceKeys: again } : {}),
		missed,
		truth: truth && {
			runs: truth.runs,
			opened: truth.opened.length,
			resolved: truth.resolved.length,
		},
		memory: await memoryOf(bench),
		storeCallMs: trace && { calls: trace.storeCalls, p50: trace.callMs.p50, max: trace.callMs.max },
		calls: figures.calls.total,
		peakWorkerRssMB: figures.peakWorkerRssMB,
	};
}

/** A week's figures from its sweeps (catch-up first, then the steady ones). */
export function weekOf(week, sweeps) {
	const sum = (f) => sweeps.reduce((total, s) => total + (f(s) ?? 0), 0);
	const reasons = {};
	for (const s of sweeps) for (const [r, n] of Object.entries(s.failReasons)) count(reasons, r, n);
	const steady = sweeps.filter((s) => s.kind === 'steady');
	const last = sweeps.at(-1);
	return {
		week,
		sweepSeconds: sweeps.map((s) => s.seconds),
		steadySeconds: Math.max(...steady.map((s) => s.seconds)),
		memory: last.memory,
		storeCallMs: {
			p50: Math.max(0, ...sweeps.map((s) => s.storeCallMs?.p50 ?? 0)),
			max: Math.max(0, ...sweeps.map((s) => s.storeCallMs?.max ?? 0)),
		},
		runsTwice: sum((s) => s.twice),
		runsMissed: sum((s) => s.missed),
		incidentsOpened: sum((s) => s.events.incidentOpened),
		incidentsResolved: sum((s) => s.events.incidentResolved),
		truthOpened: sum((s) => s.truth?.opened),
		truthResolved: sum((s) => s.truth?.resolved),
		itemsFailed: sum((s) => s.failedItems),
		failReasons: reasons,
		sweeps,
	};
}

export function weekLine(w) {
	const m = w.memory;
	const reasons = Object.entries(w.failReasons)
		.map(([r, n]) => `${n} × "${r}"`)
		.join('; ');
	return `  week ${w.week}: sweeps ${w.sweepSeconds.join(' / ')} s; memory ${m.storeRecords} records in ${m.storeRows} store rows, ${m.storeBytes} bytes + static data ${m.staticDataBytes} bytes; store calls p50 ${w.storeCallMs.p50} ms, max ${w.storeCallMs.max} ms; ${w.runsTwice} twice, ${w.runsMissed} missed; incidents opened ${w.incidentsOpened} (truth ${w.truthOpened}), resolved ${w.incidentsResolved} (truth ${w.truthResolved}); ${w.itemsFailed} items failed${reasons ? `: ${reasons}` : ''}`;
}

/** The year at `n` customers: a fleet on one run stream, a first sweep (the baseline), the weeks. */
export async function fleetYear(bench, n, prefix, clock) {
	const t0 = Math.floor(Date.now() / (5 * MINUTE)) * 5 * MINUTE; // a tick: windows end on ticks
	await setClocks(bench, clock, t0);
	const seeded = await bench.seed(n, prefix, {
		runsPerBundle: 0,
		runsPerDay: RUNS_PER_DAY,
		runStream: { seed: 54, origin: t0 - DAY },
	});
	const customers = seeded.map(({ id }) => ({ customerId: id }));
	const ledger = newLedger();
	const first = { prefix, to: t0, kind: 'first' };
	const baseline = await sweepAt(bench, clock, customers, first, ledger);
	console.log(
		`  first sweep: ${baseline.seconds} s, ${baseline.failedItems} items failed, ${JSON.stringify(baseline.events)}`,
	);
	const weeks = [];
	const stopAt = WEEKS_BUDGET_MS ? Date.now() + WEEKS_BUDGET_MS : Infinity; // --minutes
	let from = t0;
	for (let week = 1; week <= WEEKS && Date.now() < stopAt; week++) {
		const start = CATCH_UP ? t0 + week * WEEK : from;
		const sweeps = [];
		for (const [kind, to] of [
			...(CATCH_UP ? [['catchUp', start]] : []),
			['steady', start + STEADY_GAP],
			['steady', start + 2 * STEADY_GAP],
		]) {
			sweeps.push(await sweepAt(bench, clock, customers, { prefix, from, to, kind }, ledger));
			from = to;
		}
		weeks.push(weekOf(week, sweeps));
		console.log(weekLine(weeks.at(-1)));
	}
	const targets = yearTargets(weeks, ledger.due.size);
	for (const line of targets.lines) console.log(`  ${line}`);
	return {
		targets,
		customers: n,
		automations: n * 2,
		runsPerDay: RUNS_PER_DAY,
		weeks: weeks.length, // fewer than --weeks when --minutes ran out
		catchUp: CATCH_UP,
		latenessMinutes: LATENESS_MS / MINUTE,
		workerClock: { mode: clock.mode, ...(clock.note ? { note: clock.note } : {}) },
		first: baseline,
		byWeek: weeks,
		totals: { runsTwice: ledger.twice, runsMissed: ledger.missed, stillDue: ledger.due.size },
	};
}

const SIZING = /too small|Max Remembered/i;
const sum = (list, f) => list.reduce((total, item) => total + (f(item) ?? 0), 0);

/**
 * The year's checks: every sweep 0 twice and 0 missed, every recovery resolved, no item
 * failed for a sizing reason; memory (store and static data bytes) and steady sweep seconds of the
 * last week within 1.1× and 1.2× of week 2's.
 */
export function yearTargets(weeks, stillDue = 0) {
	const bytes = (w) => w.memory.storeBytes + w.memory.staticDataBytes;
	const sizing = weeks.reduce(
		(n, w) =>
			n + Object.entries(w.failReasons).reduce((k, [r, c]) => k + (SIZING.test(r) ? c : 0), 0),
		0,
	);
	const out = {
		exactlyOnce: weeks.every((w) => w.runsTwice === 0 && w.runsMissed === 0),
		// Over the year: a recovery within the lateness of a week's last sweep comes the next week.
		everyRecoveryResolved:
			sum(weeks, (w) => w.incidentsResolved) + stillDue >= sum(weeks, (w) => w.truthResolved) &&
			weeks.every((w) => w.runsMissed === 0),
		sizingFailures: sizing,
	};
	const [second, last] = [weeks[1], weeks.at(-1)];
	if (second && last !== second) {
		out.memoryGrowth = bytes(last) / Math.max(1, bytes(second));
		out.steadySecondsGrowth = last.steadySeconds / second.steadySeconds;
	}
	const ratio = (x) => `${Math.round(x * 100) / 100}×`;
	const mark = (ok) => (ok ? 'met' : 'NOT met');
	out.lines = [
		`exactly once (0 twice, 0 missed every week): ${mark(out.exactlyOnce)}`,
		`every recovery resolved: ${mark(out.everyRecoveryResolved)}`,
		`no item failed for a sizing reason: ${mark(sizing === 0)} (${sizing})`,
		...(out.memoryGrowth === undefined
			? []
			: [
					`memory week ${last.week} / week 2: ${ratio(out.memoryGrowth)} (≤ 1.1×: ${mark(out.memoryGrowth <= 1.1)})`,
					`steady sweep seconds week ${last.week} / week 2: ${ratio(out.steadySecondsGrowth)} (≤ 1.2×: ${mark(out.steadySecondsGrowth <= 1.2)})`,
				]),
	];
	return out;
}

/** With `--weeks`: the workers' clock, and their store calls traced (in `dir`); else undefined. */
export async function yearSetup(results, dir) {
	if (!ONLY.includes('fleetYear')) return undefined;
	const clock = await workerClock(WORKER_CLOCK, dir);
	results.year = {};
	results.setup.workerClock = clock.mode;
	process.env.BENCH_STORE_TRACE ||= path.join(dir, 'store-trace');
	await mkdir(process.env.BENCH_STORE_TRACE, { recursive: true });
	return clock;
}
