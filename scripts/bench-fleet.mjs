// `npm run bench:fleet [-- --customers 100,1000,10000 --out bench-fleet.json]`
//
// A partner's fleet jobs in the real n8n 2.41 in queue mode, at N customers:
//  - set-up: Redis, PostgreSQL, n8n main, 2 workers (concurrency 5) and a webhook processor, started
//    as `e2e:queue` starts them (scripts/e2e/lib); the emulator over HTTPS behind the loopback delay
//    proxy (150 ms round trip), seeded in one control call with N end users, each with 1 installation
//    of 2 automations (solution 101), field values and one run per automation;
//  - jobs, each one fan-out (examples/fleet-fanout.workflow.json: batches of `--batch` customers,
//    each POSTed to a batch webhook, so the webhook processor queues one execution per batch):
//      nightlyPause  Get Many (active) → Pause, in partner mode (examples/fleet-fanout-batch);
//      fleetChange   Ensure one field value on every customer (Canary Items 10, Stop After
//                    Failures 1% when the node has them);
//      fleetUpgrade  Installation → Upgrade of every customer, 101 → 105, after the change
//                    (lib/fleetUpgrade.mjs: two active copies counted throughout);
//      fleetSweep    Run → Get New with Group Into Incidents, twice, failed runs injected before each;
//      fleetYear     (`--weeks N`) the sweep over N simulated weeks of run streams (lib/fleetYear.mjs);
//  - the nightly pause as one big execution (`--single` sizes), and under the emulator's rate limit
//    (20 requests at once for the whole fleet);
//  - faults at `--faults-at` customers: 1% invalid End User IDs and 1% whose calls fail (503, reset)
//    must fail alone; then a worker killed (SIGKILL) halfway through a fleet change, and a rerun.
// Figures per job: seconds (trigger to the last execution's stop, from Postgres), failed items (the
// error outputs in the stored run data), calls by kind and 429s (the emulator's request summary),
// token calls per customer, peak RSS of main, each worker and the webhook processor (VmHWM, reset
// before each job), stored execution data (bytes in execution_data) and executions per worker.
//
// Also per job: 401 answers (`unauthorized`) and calls by token kind and form (`auth`), and the
// emulator's peak RSS; per size, the seed's time and the emulator's RSS after it (`setup.seed…`).
// The emulator is reset before each seed, so that it holds one fleet at a time.
//
// Options and environment (--customers, --out, --jobs, --weeks, --runs-per-day, …):
// contributing/benchmarks.md ("npm run bench:fleet").
//
// The parts: lib/fleetStart.mjs (the set-up), lib/fleetSizes.mjs (the jobs at one size),
// lib/fleetJobs.mjs, lib/fleetUpgrade.mjs and lib/fleetYear.mjs (the jobs), lib/fleetReport.mjs
// (the table and the targets).

import { rm } from 'node:fs/promises';
import path from 'node:path';

import { ensureN8n, N8N_VERSION } from './e2e/lib/install.mjs';
import { killAll } from './e2e/lib/proc.mjs';
import { ensureServices, servicesDir } from './e2e/lib/services.mjs';
import { yearSetup } from './lib/fleetYear.mjs';
import {
	BATCH,
	sweepBatchOf,
	has,
	IN_FLIGHT,
	OUT,
	RTT,
	SIZES,
	STRICT_AUTH,
	WORKER_CONCURRENCY,
	WORKERS,
} from './lib/fleetOptions.mjs';
import { emptyResults, table, targetLines } from './lib/fleetReport.mjs';
import { runSize, writeResults } from './lib/fleetSizes.mjs';
import { startFleet } from './lib/fleetStart.mjs';
import { hasRolloutGuard } from './lib/fleetWorkflows.mjs';
import { rerunWithTrustedCert } from './lib/trustedRerun.mjs';

// ---- the child ---------------------------------------------------------------------------------------

async function child() {
	const cert = JSON.parse(process.env.BENCH_N8N_CERT);
	const began = Date.now();
	const guard = hasRolloutGuard();
	const install = await ensureN8n((line) => console.log(line));
	const services = await ensureServices();
	const dir = await servicesDir();
	const cleanup = [];
	const folders = [dir];
	const results = emptyResults(SIZES, setupFigures(services, guard));
	const clock = await yearSetup(results, dir); // --weeks: the workers' clock, their store trace
	try {
		const setup = { cert, install, services, dir, guard, clock, cleanup, folders };
		const { bench, emulator, restartWorker } = await startFleet(setup);
		console.log(
			`n8n ${N8N_VERSION} queue mode: main, ${WORKERS} workers × ${WORKER_CONCURRENCY}, webhook processor; HTTPS emulator behind ${RTT} ms; batches of ${BATCH} (the sweep: ${SIZES.map((n) => `${sweepBatchOf(n)} at ${n}`).join(', ')}); rollout guard ${guard ? 'on' : 'not in this build'} (set-up ${Math.round((Date.now() - began) / 1000)} s)`,
		);
		for (const n of SIZES)
			await runSize(bench, n, { results, began, clock, emulator, restartWorker });
	} catch (error) {
		results.error = error instanceof Error ? error.stack : String(error);
		console.error(error);
		process.exitCode = 1;
	} finally {
		await writeResults(results, began);
		for (const close of cleanup.reverse()) await close().catch(() => {});
		await killAll();
		if (!has('--keep') && !process.exitCode)
			for (const folder of folders) await rm(folder, { recursive: true, force: true });
		else console.log(`logs: ${folders.join(', ')}`);
	}
	console.log(`\n${table(results)}\n`);
	for (const line of targetLines(results)) console.log(line);
	console.log(
		`\nfigures in ${path.relative(process.cwd(), OUT) || OUT} (${Math.round((Date.now() - began) / 1000)} s in all)`,
	);
}

/** The set-up's figures in the results: versions, sizes, options, the machine. */
function setupFigures(services, guard) {
	return {
		n8n: N8N_VERSION,
		queueMode: { workers: WORKERS, workerConcurrency: WORKER_CONCURRENCY, webhookProcessor: 1 },
		redis: services.versions.redis,
		postgres: services.versions.postgres,
		rttMs: RTT,
		strictAuth: STRICT_AUTH,
		batch: BATCH,
		sweepBatch: Object.fromEntries(SIZES.map((n) => [n, sweepBatchOf(n)])),
		itemsInFlight: IN_FLIGHT || 'Auto',
		...(process.env.BENCH_WORKER_NODE_OPTIONS
			? { workerNodeOptions: process.env.BENCH_WORKER_NODE_OPTIONS }
			: {}),
		rolloutGuard: guard ? { canaryItems: 10, stopAfterFailures: '1%' } : null,
		seedSeconds: {},
		emulatorRssAfterSeedMB: {},
		machine: 'shared 2-core machine: the figures are a lower bound for a real server',
		date: new Date().toISOString(),
	};
}

(process.env.BENCH_N8N_CERT ? child() : rerunWithTrustedCert(import.meta.url)).catch(
	async (error) => {
		console.error(error);
		await killAll();
		process.exit(1);
	},
);
