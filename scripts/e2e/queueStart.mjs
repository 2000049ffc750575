// Queue mode started for the run (queue.mjs): Redis, PostgreSQL, the emulator and n8n main's user
// folder (lib/services.mjs, lib/n8n.mjs), then, as the run's first group of checks, the credentials
// and workflows imported and published, main started, the workers and the webhook processor.

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { Emulator } from './lib/emulator.mjs';
import { ensureN8n, N8N_VERSION } from './lib/install.mjs';
import { N8nInstance } from './lib/n8n.mjs';
import { freePort, stop } from './lib/proc.mjs';
import { queueEnv, startRole } from './lib/queueMode.mjs';
import { ensureServices, servicesDir, startPostgres, startRedis } from './lib/services.mjs';
import { CREDENTIAL } from './lib/setup.mjs';
import { enableWebhook, PARTNER_CREDENTIAL, WEBHOOK_SECRET } from './partner.mjs';
import { twiceWorkflows } from './queueTwice.mjs';
import { watchWorkflow } from './queueWatch.mjs';
import {
	ONBOARDING,
	PARTNER,
	readWorkflow,
	repoRoot,
	timed,
	triggerWorkflow,
	UPDATE,
	WORKER_CONCURRENCY,
	WORKERS,
} from './queueSetup.mjs';

/**
 * Redis, PostgreSQL, the emulator and n8n's user folder (not started yet); each close is pushed
 * on `cleanup`, each temporary folder on `folders`.
 */
export async function startServices(cleanup, folders) {
	const install = await timed('n8n set-up (s)', () => ensureN8n());
	const services = await timed('redis + postgres packages (s)', () => ensureServices());
	console.log(`redis ${services.versions.redis}, postgres ${services.versions.postgres}`);
	const dir = await servicesDir();
	folders.push(dir);
	const { redis, postgres } = await timed('redis + postgres start (s)', async () => ({
		redis: await startRedis(path.join(dir, 'redis'), { logFile: path.join(dir, 'redis.log') }),
		postgres: await startPostgres(services.postgresBin, dir, {
			logFile: path.join(dir, 'postgres.log'),
		}),
	}));
	cleanup.push(
		() => redis.close(),
		() => postgres.close(),
	);
	const emulator = await Emulator.start(repoRoot, { logFile: path.join(dir, 'emulator.log') });
	cleanup.push(() => emulator.close());
	const partner = await emulator.control('GET', '/partner');
	const n8n = await N8nInstance.create(install, repoRoot, { env: queueEnv(redis, postgres) });
	folders.push(n8n.userFolder);
	cleanup.push(() => n8n.stop());
	console.log(
		`redis :${redis.port}, postgres :${postgres.port}, emulator ${emulator.baseUrl}, n8n ${n8n.baseUrl}; folders ${dir}, ${n8n.userFolder}`,
	);
	return { dir, redis, postgres, emulator, partner, n8n };
}

/**
 * The first group: imports, main, the workers and the webhook processor. Returns the roles started
 * (the workers, then the webhook processor; fewer when a step failed) and the webhooks' base URL.
 */
export async function startQueueMode(checks, { n8n, emulator, partner }, cleanup) {
	const roles = [];
	let webhookBase;
	await checks.group(
		`n8n ${N8N_VERSION} in queue mode: main, ${WORKERS} workers, webhook processor`,
		async () => {
			await checks.step(
				'import the credentials and 9 workflows, publish them (n8n CLI on Postgres)',
				() => timed('imports (s)', () => importAndPublish(n8n, emulator, partner)),
			);
			await checks.step('main starts (EXECUTIONS_MODE=queue, Postgres, Redis)', () =>
				timed('main start (s)', () => n8n.start()),
			);
			await n8n.loginOwner();
			const webhookPort = await freePort();
			await checks.step(
				`${WORKERS} workers (concurrency ${WORKER_CONCURRENCY} each) and the webhook processor start`,
				() =>
					timed('workers + webhook start (s)', async () => {
						roles.push(...(await startRoles(n8n, webhookPort, cleanup)));
					}),
			);
			webhookBase = `http://127.0.0.1:${webhookPort}`;
		},
	);
	return { roles, webhookBase };
}

async function importAndPublish(n8n, emulator, partner) {
	await n8n.importCredentials([
		WEBHOOK_SECRET,
		{ ...CREDENTIAL, data: { baseUrl: emulator.baseUrl, accessToken: emulator.token } },
		{
			...PARTNER_CREDENTIAL,
			data: {
				baseUrl: emulator.baseUrl,
				partnerName: partner.name,
				masterToken: partner.masterToken,
			},
		},
	]);
	// One import for all (each CLI call starts n8n: seconds), then one publish each.
	const workflows = [
		await readWorkflow(ONBOARDING.file, ONBOARDING.id),
		await readWorkflow(UPDATE.file, UPDATE.id),
		enableWebhook(await readWorkflow(PARTNER.file, PARTNER.id)),
		...(await twiceWorkflows(readWorkflow)),
		await triggerWorkflow(),
		await watchWorkflow(repoRoot),
		await watchWorkflow(repoRoot, { incidents: true }),
	];
	const folder = path.join(n8n.userFolder, 'import');
	await mkdir(folder);
	for (const workflow of workflows)
		await writeFile(path.join(folder, `${workflow.id}.json`), JSON.stringify(workflow));
	await n8n.cli(['import:workflow', '--separate', `--input=${folder}`]);
	for (const workflow of workflows) await n8n.cli(['publish:workflow', `--id=${workflow.id}`]);
}

/** The workers and the webhook processor, all started or the first failure thrown. */
async function startRoles(n8n, webhookPort, cleanup) {
	const starting = Array.from({ length: WORKERS }, (_, i) =>
		startRole(
			n8n,
			`worker-${i + 1}`,
			['worker', `--concurrency=${WORKER_CONCURRENCY}`],
			/n8n worker is now ready/i,
		),
	);
	starting.push(
		startRole(n8n, 'webhook', ['webhook'], /Webhook listener waiting for requests/i, {
			N8N_PORT: String(webhookPort),
		}),
	);
	const started = await Promise.allSettled(starting);
	for (const result of started)
		if (result.status === 'fulfilled') cleanup.push(() => stop(result.value.child));
	const failed = started.find((result) => result.status === 'rejected');
	if (failed) throw failed.reason;
	return started.map((result) => result.value);
}
