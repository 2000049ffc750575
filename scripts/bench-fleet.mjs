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

import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { Emulator } from './e2e/lib/emulator.mjs';
import { ensureN8n, N8N_VERSION } from './e2e/lib/install.mjs';
import { N8nInstance } from './e2e/lib/n8n.mjs';
import { freePort, killAll, startProcess, stop, waitFor } from './e2e/lib/proc.mjs';
import { queueEnv, startRole } from './e2e/lib/queueMode.mjs';
import { ensureServices, servicesDir, startPostgres, startRedis } from './e2e/lib/services.mjs';
import { HEADER_CREDENTIAL } from './e2e/lib/setup.mjs';
import { Bench } from './lib/fleetBench.mjs';
import { faults, fleetSweep, nightlyPause } from './lib/fleetJobs.mjs';
import { changeAndUpgrade } from './lib/fleetUpgrade.mjs';
import { fleetYear, yearSetup } from './lib/fleetYear.mjs';
import {
	BATCH,
	sweepBatchOf,
	FAULTS_AT,
	has,
	IN_FLIGHT,
	JOBS,
	ONLY,
	OUT,
	PARTNER_CREDENTIAL,
	RATE_LIMIT_AT,
	repoRoot,
	RTT,
	SINGLE,
	SIZES,
	STRICT_AUTH,
	tsNode,
	WORKER_CONCURRENCY,
	workerNodeOptions,
	WORKERS,
} from './lib/fleetOptions.mjs';
import { authPhrase, emptyResults, table, targetLines } from './lib/fleetReport.mjs';
import { batchWorkflow, fanoutWorkflow, hasRolloutGuard } from './lib/fleetWorkflows.mjs';
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
	let bench;
	const results = emptyResults(SIZES, {
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
	});
	const clock = await yearSetup(results, dir); // --weeks: the workers' clock, their store trace
	try {
		const redis = await startRedis(path.join(dir, 'redis'), {
			logFile: path.join(dir, 'redis.log'),
		});
		cleanup.push(() => redis.close());
		const postgres = await startPostgres(services.postgresBin, dir, {
			logFile: path.join(dir, 'postgres.log'),
		});
		cleanup.push(() => postgres.close());
		const emulator = await Emulator.start(repoRoot, {
			args: ['--tls-cert', cert.certFile, '--tls-key', cert.keyFile, '--quiet'],
			logFile: path.join(dir, 'emulator.log'),
		});
		cleanup.push(() => emulator.close());
		let proxyUrl;
		const proxy = startProcess(
			process.execPath,
			[
				tsNode,
				'--transpile-only',
				'scripts/lib/delayProxy.ts',
				new URL(emulator.baseUrl).port,
				String(RTT),
			],
			{
				cwd: repoRoot,
				onLine: (line) => {
					const match = /^PROXY \d+ (\d+)$/.exec(line);
					if (match) proxyUrl = `https://127.0.0.1:${match[1]}`;
				},
			},
		);
		cleanup.push(() => stop(proxy));
		await waitFor('the delay proxy', () => proxyUrl, { timeoutMs: 60_000, intervalMs: 100 });
		const partner = await emulator.control('GET', '/partner');

		const n8n = await N8nInstance.create(install, repoRoot, { env: queueEnv(redis, postgres) });
		folders.push(n8n.userFolder);
		cleanup.push(() => n8n.stop());
		const webhookPort = await freePort();
		const webhookBase = `http://127.0.0.1:${webhookPort}`;
		await n8n.importCredentials([
			HEADER_CREDENTIAL,
			{
				...PARTNER_CREDENTIAL,
				data: { baseUrl: proxyUrl, partnerName: partner.name, masterToken: partner.masterToken },
			},
		]);
		const workflows = [];
		for (const job of Object.keys(JOBS))
			workflows.push(await batchWorkflow(job, guard), await fanoutWorkflow(job, webhookBase));
		const folder = path.join(n8n.userFolder, 'import');
		await mkdir(folder);
		for (const workflow of workflows)
			await writeFile(path.join(folder, `${workflow.id}.json`), JSON.stringify(workflow));
		await n8n.cli(['import:workflow', '--separate', `--input=${folder}`]);
		for (const workflow of workflows) await n8n.cli(['publish:workflow', `--id=${workflow.id}`]);
		await n8n.start();
		const startWorker = (name) =>
			startRole(
				n8n,
				name,
				['worker', `--concurrency=${WORKER_CONCURRENCY}`],
				/n8n worker is now ready/i,
				workerEnv(name, clock),
			);
		const roles = await Promise.all([
			...Array.from({ length: WORKERS }, (_, i) => startWorker(`worker-${i + 1}`)),
			startRole(n8n, 'webhook', ['webhook'], /Webhook listener waiting for requests/i, {
				N8N_PORT: String(webhookPort),
			}),
		]);
		for (const role of roles) cleanup.push(() => stop(role.child));
		const { parse } = await import(
			path.join(install.appDir, 'node_modules', 'flatted', 'esm', 'index.js')
		);
		bench = new Bench({
			emulator,
			postgres,
			n8n,
			roles,
			webhookBase,
			partner,
			flatted: { parse },
			logDir: dir,
		});
		console.log(
			`n8n ${N8N_VERSION} queue mode: main, ${WORKERS} workers × ${WORKER_CONCURRENCY}, webhook processor; HTTPS emulator behind ${RTT} ms; batches of ${BATCH} (the sweep: ${SIZES.map((n) => `${sweepBatchOf(n)} at ${n}`).join(', ')}); rollout guard ${guard ? 'on' : 'not in this build'} (set-up ${Math.round((Date.now() - began) / 1000)} s)`,
		);
		const restartWorker = async (worker) => {
			await stop(worker.child, 1000);
			const fresh = await startWorker(worker.name);
			worker.child = fresh.child;
			cleanup.push(() => stop(fresh.child));
		};

		for (const n of SIZES) {
			const sizeBegan = Date.now();
			await bench.resetEmulator();
			console.log(`\n${n} customers`);
			if (await yearDone(bench, n, { results, began, clock })) continue;
			if (ONLY.includes('nightlyPause')) {
				const pause = await nightlyPause(bench, n, `p${n}-`);
				results.jobs.nightlyPause[n] = pause;
				console.log(
					`  nightly pause: ${pause.seconds} s, ${pause.failedItems} failed, ${pause.leftActive} left active, ${pause.calls.total} calls; ${authPhrase(pause)}`,
				);
			}
			// One fleet in the emulator at a time: 100,000 customers take ~0.7 GB of its memory.
			await bench.resetEmulator();
			const seeded = await bench.seed(n, `c${n}-`);
			await changeAndUpgrade(bench, seeded, results.jobs);
			if (ONLY.includes('fleetSweep')) {
				const sweep = await fleetSweep(bench, seeded);
				results.jobs.fleetSweep[n] = sweep;
				console.log(
					`  fleet sweep: ${sweep.seconds} s (slowest of 2), ${sweep.runsReportedTwice} twice, ${sweep.runsMissed} missed, ${sweep.incidentsResolved} of ${sweep.automationsRecovered} recovered automations resolved; ${authPhrase(sweep)}`,
				);
			}
			if (SINGLE.includes(n)) {
				await bench.resetEmulator();
				const single = await nightlyPause(bench, n, `s${n}-`, { single: true });
				results.single.nightlyPause[n] = single;
				console.log(
					`  nightly pause as one execution: ${single.seconds} s, ${single.failedItems} failed, worker RSS ${single.peakWorkerRssMB} MB`,
				);
			}
			if (RATE_LIMIT_AT.includes(n)) {
				await bench.resetEmulator();
				await emulator.control('POST', '/rate-limit', {
					maxConcurrent: 20,
					retryAfterSeconds: 1,
					serviceMs: 50,
				});
				const limited = await nightlyPause(bench, n, `r${n}-`);
				await emulator.control('DELETE', '/rate-limit');
				results.rateLimited.nightlyPause[n] = {
					...limited,
					limit: { maxConcurrent: 20, serviceMs: 50 },
				};
				console.log(
					`  nightly pause, rate-limited (20 at once): ${limited.seconds} s, ${limited.failedItems} failed, ${limited.calls.rateLimited} × 429`,
				);
			}
			if (n === FAULTS_AT) {
				await bench.resetEmulator();
				results.faults = await faults(bench, n, restartWorker);
			}
			results.setup.seedSeconds[n] = bench.seeds[n]?.seconds;
			results.setup.emulatorRssAfterSeedMB[n] = bench.seeds[n]?.emulatorRssMB;
			console.log(
				`  (${n} customers: ${Math.round((Date.now() - sizeBegan) / 1000)} s; slowest seed ${bench.seeds[n]?.seconds} s, emulator RSS after it ${bench.seeds[n]?.emulatorRssMB} MB)`,
			);
			await writeResults(results, began);
		}
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

async function writeResults(results, began) {
	results.setup.benchSeconds = Math.round((Date.now() - began) / 1000);
	await writeFile(OUT, `${JSON.stringify(results, null, 2)}\n`);
}

(process.env.BENCH_N8N_CERT ? child() : rerunWithTrustedCert(import.meta.url)).catch(
	async (error) => {
		console.error(error);
		await killAll();
		process.exit(1);
	},
);

/**
 * A worker's environment: BENCH_WORKER_METRICS_PORT (P): worker-i serves n8n's /metrics on P+i
 * (heap and RSS during a job); the workers' NODE_OPTIONS (BENCH_WORKER_NODE_OPTIONS, e.g. a heap
 * limit; the store trace); with `--weeks`, their clock.
 */
function workerEnv(name, clock) {
	const metricsBase = Number(process.env.BENCH_WORKER_METRICS_PORT || 0);
	const metrics = metricsBase
		? {
				N8N_METRICS: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(metricsBase + Number(name.split('-')[1])),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			}
		: {};
	return { ...metrics, ...workerNodeOptions(), ...clock?.env };
}

/** `--weeks`: the year at `n` customers; true when it is the only job asked for. */
async function yearDone(bench, n, { results, began, clock }) {
	if (!clock) return false;
	results.year[n] = await fleetYear(bench, n, `y${n}-`, clock);
	await writeResults(results, began);
	if (ONLY.length === 1) return true;
	await bench.resetEmulator();
	return false;
}
