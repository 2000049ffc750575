// `npm run bench:fleet`'s options (see scripts/bench-fleet.mjs) and the names shared by its modules.

import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parseSizes } from './fleetReport.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const tsNode = path.join(repoRoot, 'node_modules', 'ts-node', 'dist', 'bin.js');

function arg(name, fallback) {
	const i = process.argv.indexOf(name);
	return i === -1 ? fallback : process.argv[i + 1];
}
export const has = (name) => process.argv.includes(name);

export const SIZES = parseSizes(arg('--customers', '100,1000,10000'));
export const RTT = Number(arg('--rtt', 150));
export const BATCH = Number(arg('--batch', 500));
/**
 * The sweep's batch over `customers`: `--sweep-batch`, else 2,000 or a twentieth of the fleet,
 * whichever is more (docs/scaling.md, "A hundred thousand customers"). Each batch's gate reads and
 * writes Run → Get New's whole list in n8n's store a few times, and that list grows with the fleet:
 * about 20 batches a sweep (two per worker slot) keep that work in proportion to the fleet. Its items
 * are light (a customer in, its incidents out).
 */
const SWEEP_BATCHES = 20;
export const sweepBatchOf = (customers) =>
	has('--sweep-batch')
		? Number(arg('--sweep-batch'))
		: Math.max(2000, Math.ceil(customers / SWEEP_BATCHES));
/** Customers per batch execution of `job` over `customers` customers. */
export const batchOf = (job, customers) => (job === 'fleetSweep' ? sweepBatchOf(customers) : BATCH);
export const SINGLE =
	arg('--single', '100,1000') === 'none' ? [] : parseSizes(arg('--single', '100,1000'));
/** Items in Flight of every Albato node (0: Auto). */
export const IN_FLIGHT = Number(arg('--in-flight', 0));
/** The faults' size: the largest ≤ 1,000, else the smallest (10,000 of `--customers 10000,100000`). */
export const FAULTS_AT = Number(
	arg('--faults-at', [...SIZES].reverse().find((n) => n <= 1000) ?? SIZES[0]),
);
/**
 * The sizes with the rate-limited nightly pause: `--rate-limit-at`, else every size up to 10,000 (the
 * smallest when none is). At 20 requests at once its time is the limit's arithmetic (3 calls per
 * customer over 20 slots: about 50 minutes at 100,000), not a bound of the fleet; `--no-rate-limit`: none.
 */
export const RATE_LIMIT_AT = has('--no-rate-limit')
	? []
	: has('--rate-limit-at')
		? parseSizes(arg('--rate-limit-at'))
		: upTo10000OrSmallest(SIZES);

function upTo10000OrSmallest(sizes) {
	const small = sizes.filter((n) => n <= 10000);
	return small.length > 0 ? small : [Math.min(...sizes)];
}
export const OUT = path.resolve(arg('--out', 'bench-fleet.json'));
/** `--weeks N`: the sweep over N simulated weeks (scripts/lib/fleetYear.mjs); 0: none. */
export const WEEKS = Number(arg('--weeks', 0));
/** `--no-catch-up`: each simulated week only its two steady sweeps (no week's jump before them). */
export const CATCH_UP = !has('--no-catch-up');
if (!Number.isInteger(WEEKS) || WEEKS < 0) throw new Error('--weeks wants a whole number ≥ 0');
/** `--minutes M`: the weeks stop after the one that ends past M minutes of them (0: all are run). */
export const WEEKS_BUDGET_MS = Number(arg('--minutes', 0)) * 60_000;
if (!(WEEKS_BUDGET_MS >= 0)) throw new Error('--minutes wants a number ≥ 0');
/** Runs a day per automation of the weeks' fleet (the emulator's run stream). */
export const RUNS_PER_DAY = Number(arg('--runs-per-day', 50));
/** How late an incident may be said before the weeks count it missed (`--lateness-minutes`). */
export const LATENESS_MS = Number(arg('--lateness-minutes', 60)) * 60_000;
/** The workers' clock in the weeks: auto, faketime or real (scripts/lib/workerClock.mjs). */
export const WORKER_CLOCK = arg('--worker-clock', 'auto');
/** The jobs: `--jobs`, else the three (or, with `--weeks`, the weeks alone). */
export const ONLY = arg(
	'--jobs',
	WEEKS > 0 ? 'fleetYear' : 'nightlyPause,fleetChange,fleetSweep',
).split(',');

/** The emulator's `strictAuth` variant (emulator/README.md), set after every reset. */
export const STRICT_READINGS = [
	'lenient',
	'noRawBasic',
	'noBasicUsername',
	'noBearerPermanent',
	'panelToken',
	'sessionToken',
];
export const STRICT_AUTH = arg('--strict-auth', 'lenient');
if (!STRICT_READINGS.includes(STRICT_AUTH))
	throw new Error(`--strict-auth wants one of ${STRICT_READINGS.join(', ')}, got "${STRICT_AUTH}"`);

/**
 * Run → Get New's Max Remembered Runs in Total for the sweep of `n` customers: `--max-runs-total`,
 * else 10 per customer, at least the node's default (100,000). The store holds about a record per
 * run returned and, with incidents, two per customer, and the node stops a sweep that would fill
 * 90% of it (docs/scaling.md, "A hundred thousand customers"): 1,000,000 at 100,000 customers.
 */
export const maxRunsTotalFor = (n) =>
	Number(arg('--max-runs-total', 0)) || Math.max(100_000, 10 * n);
/**
 * The sweep node's setting, a number in the batch workflow (sized for the largest fleet of the run),
 * as a partner sets it: an expression reading the batch webhook's body at every item costs n8n 2.41
 * a copy of the body (the batch's customers) per item, and held a worker's event loop 6-8 s at the
 * start of each batch of 2,000 (docs/scaling.md, "Keep the customer list out of expressions").
 */
export const SWEEP_MAX_RUNS_TOTAL = maxRunsTotalFor(Math.max(...SIZES));

/** Customers per seeding control call: bounded answers, each well inside fetch's 300 s limit. */
export const SEED_CHUNK = 10_000;

export const WORKERS = 2;
export const WORKER_CONCURRENCY = 5;
export const PARTNER_CREDENTIAL = {
	id: '2',
	name: 'Albato Partner (emulator)',
	type: 'albatoPartnerApi',
};
export const NODE_TYPE = 'n8n-nodes-albato-solutions.albatoSolutions';
export const SPLIT = 'One item per customer';

export const JOBS = {
	nightlyPause: { batchId: 'BenchBatPause001', fanId: 'BenchFanPause001' },
	fleetChange: { batchId: 'BenchBatChange01', fanId: 'BenchFanChange01' },
	fleetSweep: { batchId: 'BenchBatSweep001', fanId: 'BenchFanSweep001' },
	fleetUpgrade: { batchId: 'BenchBatUpgrad01', fanId: 'BenchFanUpgrad01' },
};
export const batchPath = (job) => `bench-batch-${job}`;
export const fanoutPath = (job) => `bench-fanout-${job}`;

/** The workers' NODE_OPTIONS: BENCH_WORKER_NODE_OPTIONS, and the store trace when asked for. */
export function workerNodeOptions() {
	const trace = process.env.BENCH_STORE_TRACE;
	const options = [
		process.env.BENCH_WORKER_NODE_OPTIONS,
		trace && `--require ${path.join(repoRoot, 'scripts/lib/storeTrace.cjs')}`,
	].filter(Boolean);
	return {
		...(options.length ? { NODE_OPTIONS: options.join(' ') } : {}),
		...(trace ? { BENCH_STORE_TRACE: path.resolve(trace) } : {}),
	};
}
