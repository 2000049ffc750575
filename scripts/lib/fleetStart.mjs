// `npm run bench:fleet`'s set-up (bench-fleet.mjs): Redis, PostgreSQL, the emulator over HTTPS
// behind the loopback delay proxy, n8n main with the credentials and the jobs' workflows, the
// workers and the webhook processor, started as `e2e:queue` starts them (scripts/e2e/lib).

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { Emulator } from '../e2e/lib/emulator.mjs';
import { N8nInstance } from '../e2e/lib/n8n.mjs';
import { freePort, stop } from '../e2e/lib/proc.mjs';
import { queueEnv, startRole } from '../e2e/lib/queueMode.mjs';
import { startPostgres, startRedis } from '../e2e/lib/services.mjs';
import { HEADER_CREDENTIAL } from '../e2e/lib/setup.mjs';
import { Bench } from './fleetBench.mjs';
import {
	JOBS,
	PARTNER_CREDENTIAL,
	repoRoot,
	RTT,
	WORKER_CONCURRENCY,
	workerNodeOptions,
	WORKERS,
} from './fleetOptions.mjs';
import { batchWorkflow, fanoutWorkflow } from './fleetWorkflows.mjs';
import { startDelayProxy } from './startDelayProxy.mjs';

/**
 * Everything started; each stop pushed on `setup.cleanup`, n8n's user folder on `setup.folders`.
 * `setup`: `{ cert, install, services, dir, guard, clock, cleanup, folders }`. Returns the Bench,
 * the emulator and `restartWorker(worker)` (stopped, then started again under its name).
 */
export async function startFleet(setup) {
	const { install, cleanup, folders } = setup;
	const { redis, postgres, emulator, proxyUrl } = await startBackends(setup);
	const partner = await emulator.control('GET', '/partner');

	const n8n = await N8nInstance.create(install, repoRoot, { env: queueEnv(redis, postgres) });
	folders.push(n8n.userFolder);
	cleanup.push(() => n8n.stop());
	const webhookPort = await freePort();
	const webhookBase = `http://127.0.0.1:${webhookPort}`;
	await importAndPublish(n8n, { proxyUrl, partner, guard: setup.guard, webhookBase });
	await n8n.start();
	const startWorker = (name) =>
		startRole(
			n8n,
			name,
			['worker', `--concurrency=${WORKER_CONCURRENCY}`],
			/n8n worker is now ready/i,
			workerEnv(name, setup.clock),
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
	const bench = new Bench({
		emulator,
		postgres,
		n8n,
		roles,
		webhookBase,
		partner,
		flatted: { parse },
		logDir: setup.dir,
	});
	const restartWorker = async (worker) => {
		await stop(worker.child, 1000);
		const fresh = await startWorker(worker.name);
		worker.child = fresh.child;
		cleanup.push(() => stop(fresh.child));
	};
	return { bench, emulator, restartWorker };
}

/** Redis, PostgreSQL, the emulator over HTTPS and the delay proxy in front of it. */
async function startBackends({ cert, services, dir, cleanup }) {
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
	const proxy = await startDelayProxy(emulator, RTT);
	cleanup.push(() => stop(proxy.child));
	return { redis, postgres, emulator, proxyUrl: proxy.proxyUrl };
}

/** The credentials (the partner's through the proxy) and each job's two workflows, published. */
async function importAndPublish(n8n, { proxyUrl, partner, guard, webhookBase }) {
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
}

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
