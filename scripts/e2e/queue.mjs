// `npm run e2e:queue`: our package in n8n's queue mode, the way a partner with many customers runs it.
//
//  - Debian's redis-server and PostgreSQL (apt-get installs them when missing), as child processes
//    on loopback with temporary data (lib/services.mjs);
//  - n8n main (`n8n start`, EXECUTIONS_MODE=queue, Postgres): editor, REST API, triggers;
//  - 2 workers (`n8n worker --concurrency=5`): every execution;
//  - 1 webhook processor (`n8n webhook`): production webhooks (main has them turned off).
//
// Then: 50 concurrent webhook calls onboard 50 customers; 3 concurrent executions change the same
// field on the same 2 active installations ("Pause, Update, Then Start Again"); 50 more concurrent
// webhook calls onboard 50 customers in partner mode (examples/new-customer-onboarding: end user,
// installation, start, with the Albato Partner API credential and the workers' token caches); the
// polling trigger, active throughout, must report each of the first 50 installations exactly once;
// the fleet-watch example's Run → Get New, started twice at once over 20 customers in 3 rounds with
// runs injected before each, must return each run exactly once across both executions
// (queueWatch.mjs: the overlap guarantee of docs/runs.md); each onboarding delivered twice at once
// (queueTwice.mjs), and with the list lagging beyond the Lost Answer Check then one later Ensure
// each (queueRace.mjs: no customer left with two active copies).
// Checks the emulator's state and request log, the executions in Postgres and which worker ran
// each, and that no token reached Postgres or any n8n log.
//
// Ends with `N passed, N failed`; exit code 1 on any failure. Every process is stopped by pid.
// Env: N8N_E2E_KEEP=1 keeps the temporary folders; QUEUE_E2E_CUSTOMERS (50), QUEUE_E2E_CONCURRENCY (5).
//
// The parts: queueSetup.mjs (the workflows, sizes, timings), queueStart.mjs (the processes and the
// first group), queueOnboarding.mjs, queueOverlap.mjs, queueWatch.mjs, queueWatchIncidents.mjs,
// queueTwice.mjs (the groups), queueOutcome.mjs (trigger, executions, secrets).

import { rm } from 'node:fs/promises';

import { Checks } from './lib/checks.mjs';
import { killAll } from './lib/proc.mjs';
import { checkOnboarding, checkPartnerOnboarding } from './queueOnboarding.mjs';
import { checkExecutions, checkNoTokens, checkTrigger, workerOf } from './queueOutcome.mjs';
import { checkOverlappingUpdates } from './queueOverlap.mjs';
import { CUSTOMERS, post, seconds, timed, timings, WORKERS } from './queueSetup.mjs';
import { startQueueMode, startServices } from './queueStart.mjs';
import { checkTwice, TWICE } from './queueTwice.mjs';
import {
	checkOverlappingSweeps,
	WATCH,
	WATCH_INCIDENTS,
	WATCH_CUSTOMERS,
	WATCH_ROUNDS,
} from './queueWatch.mjs';
import { checkOverlappingIncidents } from './queueWatchIncidents.mjs';

// ---- main ----------------------------------------------------------------------------------

async function main() {
	const checks = new Checks();
	const runStarted = Date.now();
	const cleanup = [];
	const folders = [];
	try {
		const run = await startServices(cleanup, folders);
		const { roles, webhookBase } = await startQueueMode(checks, run, cleanup);
		const workers = roles.slice(0, WORKERS);
		if (roles.length < WORKERS + 1 || !webhookBase)
			throw new Error('the queue-mode setup did not start: stopping');
		const queue = { ...run, checks, roles, workers, webhookBase };
		await onboardingGroups(queue);
		const watchSweeps = await sweepGroups(queue);
		await closingGroups(queue, watchSweeps);
		if (checks.failed) console.log(`\nlogs: ${run.n8n.userFolder}/n8n-*.log, ${run.dir}/*.log`);
	} catch (error) {
		checks.ok('queue-mode run', false, error instanceof Error ? error.stack : String(error));
	} finally {
		// Reverse order of start: n8n processes, then the emulator, Postgres and Redis.
		for (const close of cleanup.reverse())
			await close().catch((error) => console.log(`(stopping: ${error.message})`));
		await killAll();
		if (process.env.N8N_E2E_KEEP !== '1' && !checks.failed)
			for (const folder of folders) await rm(folder, { recursive: true, force: true });
	}
	timings['total (s)'] = seconds(Date.now() - runStarted);
	console.log(
		`\ntimings: ${Object.entries(timings)
			.map(([k, v]) => `${k} ${v}`)
			.join(', ')}`,
	);
	console.log(checks.summary());
	process.exitCode = checks.failed ? 1 : 0;
}

/** The onboardings, the overlapping updates and the trigger that reports each onboarding once. */
async function onboardingGroups({ checks, n8n, emulator, partner, webhookBase }) {
	let installations = [];
	await checks.group(`Onboarding: ${CUSTOMERS} customers through the webhook at once`, async () => {
		installations = await timed('onboarding (s)', () =>
			checkOnboarding(checks, webhookBase, emulator),
		);
	});
	await checks.group('Overlap: 3 executions update the same 2 installations at once', () =>
		timed('overlap (s)', () =>
			checkOverlappingUpdates(checks, webhookBase, emulator, installations),
		),
	);
	await checks.group(
		`Partner mode: ${CUSTOMERS} new customers (end user, installation, start) through the webhook at once`,
		() =>
			timed('partner onboarding (s)', () =>
				checkPartnerOnboarding(checks, webhookBase, emulator, partner),
			),
	);
	await checks.group('Trigger: active on main, each event once', () =>
		timed('trigger (s)', () => checkTrigger(checks, n8n, installations)),
	);
}

/** The fleet-watch sweeps started twice at once, then with incidents. Returns the sweeps run. */
async function sweepGroups({ checks, n8n, emulator, partner, workers, webhookBase }) {
	const watchSweeps = { [WATCH.id]: 0, [WATCH_INCIDENTS.id]: 0 };
	const ofWorker = workerOf(workers);
	let bundles;
	await checks.group(
		`Overlapping sweeps: Run → Get New over ${WATCH_CUSTOMERS} customers started twice at once, ${WATCH_ROUNDS} rounds`,
		() =>
			timed('overlapping sweeps (s)', async () => {
				const watched = await checkOverlappingSweeps(checks, {
					emulator,
					partner,
					n8n,
					webhookBase,
					post,
					workerOf: ofWorker,
				});
				watchSweeps[WATCH.id] = watched.sweeps;
				bundles = watched.bundles;
			}),
	);
	if (bundles)
		await checks.group(
			`Incidents in queue mode: the fleet-watch example over ${WATCH_CUSTOMERS} customers, two sweeps at once, while an automation of each fails and recovers`,
			() =>
				timed('overlapping incident sweeps (s)', async () => {
					watchSweeps[WATCH_INCIDENTS.id] = await checkOverlappingIncidents(checks, {
						emulator,
						n8n,
						webhookBase,
						post,
						workerOf: ofWorker,
						bundles,
					});
				}),
		);
	return watchSweeps;
}

/** Each onboarding delivered twice, then the executions and the secrets. */
async function closingGroups(
	{ checks, n8n, emulator, postgres, roles, workers, partner, webhookBase },
	watchSweeps,
) {
	for (const kind of Object.keys(TWICE))
		await checks.group(TWICE[kind].group, () =>
			timed(`delivered twice, ${kind} (s)`, () =>
				checkTwice(checks, { webhookBase, emulator, post, postgres }, kind),
			),
		);
	await checks.group('Executions: all succeeded, spread over both workers', () =>
		checkExecutions(checks, postgres, workers, watchSweeps),
	);
	await checks.group('Secrets: no token stored or logged', () =>
		checkNoTokens(
			checks,
			postgres,
			[n8n.logFile, ...roles.map((role) => role.logFile)],
			partner,
			emulator,
		),
	);
}

await main();
