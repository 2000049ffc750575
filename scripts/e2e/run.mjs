// `npm run e2e:n8n`: our built package inside the full, real n8n 2.x.
//
//  1. set up n8n once per machine (lib/install.mjs; cached outside the repository)
//  2. start the emulator; make a throw-away n8n user folder with our package in it
//  3. import the credential and the examples/ workflows with n8n's CLI
//  4. `n8n execute` the onboarding journey and check every node's output and the emulator
//  5. publish the trigger workflow, start n8n, change things in the emulator, and check that
//     the trigger fired (n8n's REST API for the executions, the emulator's log for the calls)
//  6. the editor in Chromium: node panel, pickers, field mapper (browser.mjs)
//     then Ensure onboarding with pickers, the Run Failed sample, a reopened workflow
//     (browserEnsure.mjs), then the fleet examples and a first onboarding in an n8n of their own
//     (browserExamples.mjs)
//  7. partner mode (partner.mjs); billing: usage top-up, plans, block (billing.mjs); runs,
//     offboarding and connect-by-link examples (runs.mjs)
//  8. the fleet examples (fleetGroups.mjs): change and restore, upgrade and roll back, watch
//
// Ends with `N passed, N failed`; exit code 1 when anything failed. Every child process is
// killed on the way out. Env: N8N_E2E_SKIP_BROWSER=1 skips step 6, N8N_E2E_KEEP=1 keeps the
// n8n user folder (its path is printed), N8N_E2E_VERSION / N8N_E2E_CACHE see lib/install.mjs.

import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { runBrowserTest } from './browser.mjs';
import { runEnsureBrowserTest } from './browserEnsure.mjs';
import { runPartnerBrowserTest } from './browserPartner.mjs';
import { checkErrorOutput } from './errorOutput.mjs';
import { FLEET_GROUPS } from './fleetGroups.mjs';
import { checkPartnerMode } from './partner.mjs';
import { checkRunsAndConnections } from './runs.mjs';
import { checkStrictAuth } from './strictAuth.mjs';
import { checkBilling } from './billing.mjs';
import { Checks } from './lib/checks.mjs';
import { Emulator } from './lib/emulator.mjs';
import { ensureN8n } from './lib/install.mjs';
import { N8nInstance } from './lib/n8n.mjs';
import { killAll, waitFor } from './lib/proc.mjs';
import { importFixtures, WORKFLOWS } from './lib/setup.mjs';
import { deactivateWorkflow } from './lib/webhook.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const TRIGGER_TIMEOUT_MS = 150_000; // "every minute" polls: at most ~60 s after the change, plus slack
const timings = {};

/**
 * `node scripts/e2e/browserExamples.mjs` (its own n8n, emulator and browser), its lines shown as
 * they come and its closing `N passed, N failed` added to `checks`, with the names of what failed.
 */
async function examplesInTheirOwnN8n(checks) {
	const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/e2e/browserExamples.mjs')], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	let output = '';
	child.stdout.on('data', (chunk) => {
		output += chunk;
		process.stdout.write(chunk);
	});
	const code = await new Promise((resolve) => child.on('exit', (exit) => resolve(exit ?? 1)));
	const counts = /(\d+) passed, (\d+) failed\s*$/.exec(output);
	if (!counts) throw new Error(`browserExamples.mjs ended (exit ${code}) without its counts`);
	checks.passed += Number(counts[1]);
	checks.failed += Number(counts[2]);
	for (const [, name] of output.matchAll(/^ {2}✗ (.+)$/gm))
		if (!checks.failures.includes(name)) checks.failures.push(name);
}

async function timed(name, fn) {
	const started = Date.now();
	try {
		return await fn();
	} finally {
		timings[name] = Math.round((Date.now() - started) / 100) / 10;
	}
}

// ---- run data helpers -------------------------------------------------------------------

/** Output items (json) of a node's first run in n8n's run data. */
function outputOf(runData, nodeName) {
	return (runData[nodeName]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
}

const fieldValue = (records, code) =>
	records.flatMap((record) => record.data ?? []).find((field) => field.name === code)?.value;

// ---- 4. the onboarding journey through `n8n execute` ----------------------------------------

export async function checkOnboarding(checks, n8n, emulator, workflow) {
	const result = await checks.step('n8n execute runs "customer onboarding journey"', async () => {
		const executed = await n8n.execute(WORKFLOWS.onboarding.id);
		if (!executed.run)
			throw new Error(
				`no run JSON in the output (exit ${executed.code})\n${executed.output.slice(-3000)}`,
			);
		return executed;
	});
	timings['execute onboarding (s)'] = Math.round(result.ms / 100) / 10;
	const { run } = result;
	const runData = run.data.resultData.runData;
	checks.ok(
		'exit code 0, execution status "success"',
		n8n.succeeded(result),
		() =>
			`exit ${result.code}, status ${run.status}: ${JSON.stringify(run.data.resultData.error ?? {}).slice(0, 800)}`,
	);
	const names = workflow.nodes.map((node) => node.name);
	const ran = names.filter((name) => runData[name]?.[0]?.executionStatus === 'success');
	checks.equal(`all ${names.length} nodes ran successfully`, ran, names);

	const solutions = outputOf(runData, 'List solutions').map((s) => s.id);
	checks.equal('List solutions → the 4 published solutions', solutions, [101, 102, 103, 105]);
	checks.ok(
		'Read connection settings → steps of solution 101',
		outputOf(runData, 'Read connection settings')[0]?.steps?.some((s) => s.id === 'crm'),
	);
	const installed = outputOf(runData, 'Install for Acme')[0] ?? {};
	checks.ok(
		'Install for Acme → a new installation, paused',
		Number(installed.id) >= 6001 && installed.status === 0,
		JSON.stringify(installed),
	);
	checks.equal('Start → status 1 (PLAY)', outputOf(runData, 'Start')[0]?.status, 1);
	checks.equal('Pause → status 0 (PAUSE)', outputOf(runData, 'Pause')[0]?.status, 0);
	checks.equal(
		'Change email subject → updated',
		outputOf(runData, 'Change email subject')[0]?.updated,
		{ subject: 'Welcome to Acme!' },
	);
	checks.equal(
		'Read changed values → the new subject',
		fieldValue(outputOf(runData, 'Read changed values'), 'subject'),
		'Welcome to Acme!',
	);
	checks.equal('Start again → status 1', outputOf(runData, 'Start again')[0]?.status, 1);
	checks.ok(
		'Read partner schema → fields of partner 201',
		outputOf(runData, 'Read partner schema')[0]?.fields?.length === 3,
	);
	const connection = outputOf(runData, 'Create partner connection')[0] ?? {};
	checks.ok(
		'Create partner connection → a connection of partner 201',
		connection.partnerId === 201 && connection.id !== undefined,
		JSON.stringify(connection),
	);

	// The service's side: what the emulator now holds and which calls reached it.
	const state = await emulator.state();
	const installation = state.installations.find((i) => i.id === installed.id);
	checks.ok(
		`emulator: installation ${installed.id} exists and is active`,
		installation?.status === 1,
		JSON.stringify(installation),
	);
	const subject = state.bundleData
		.filter((record) => installation?.bundleIds?.includes(record.bundleId))
		.flatMap((record) => record.fields)
		.find((field) => field.name === 'subject')?.value;
	checks.equal('emulator: the subject field was changed', subject, 'Welcome to Acme!');
	checks.ok(
		'emulator: the partner connection was created',
		state.credentials.some((c) => c.partnerId === 201 && c.title === 'Acme CRM connection'),
	);
	const calls = (await emulator.requests()).map((r) => `${r.method} ${r.path}`);
	const own = `/solution/installation/${installed.id}`;
	checks.ok(
		'emulator: n8n sent the custom methods PLAY and PAUSE',
		calls.includes(`PLAY ${own}`) && calls.includes(`PAUSE ${own}`),
		calls.join('\n'),
	);
}

// ---- 5. the polling trigger in a running n8n ----------------------------------------------

/** Trigger events seen so far in the workflow's executions: `[{ event, installationId, … }]`. */
async function triggerEvents(n8n, workflowId, triggerName, nextName) {
	const seen = [];
	for (const summary of await n8n.executions(workflowId)) {
		if (summary.status !== 'success') continue;
		const execution = await n8n.execution(summary.id);
		const runData = execution.data.resultData.runData;
		const details = outputOf(runData, nextName);
		for (const event of outputOf(runData, triggerName))
			seen.push({ ...event, detail: details.find((d) => d.id === event.installationId) });
	}
	return seen;
}

export async function checkTrigger(checks, n8n, emulator, workflow) {
	const triggerName = workflow.nodes.find((node) =>
		node.type.endsWith('albatoSolutionsTrigger'),
	).name;
	const nextName = workflow.nodes.find((node) => node.type.endsWith('.albatoSolutions')).name;

	// The trigger's first poll only records a baseline: start from the fixtures.
	await emulator.reset();
	// n8n 2.0 publishes only a saved version, which its CLI import does not make: activated there
	// once n8n runs, as the editor's toggle does (n8n.activate).
	const publishLater = n8n.importMakesNoVersion;
	if (!publishLater)
		await checks.step('publish:workflow activates the trigger workflow', () =>
			n8n.publishCli(WORKFLOWS.trigger.id),
		);
	timings['n8n start (s)'] =
		Math.round((await checks.step('n8n starts with our package loaded', () => n8n.start())) / 100) /
		10;
	await checks.step('owner account set up through /rest/owner/setup', () => n8n.loginOwner());
	if (publishLater)
		await checks.step('the trigger workflow activated (REST)', () =>
			n8n.activate(WORKFLOWS.trigger.id),
		);

	const listCalls = async () =>
		(await emulator.requests()).filter(
			(r) => r.method === 'GET' && r.path === '/solution/installation',
		).length;
	await checks.step('activation polls the service once (the baseline)', () =>
		waitFor("the trigger's first poll", async () => (await listCalls()) >= 1, {
			timeoutMs: 60_000,
		}),
	);

	// Two changes, as an end user would make them elsewhere.
	const started = Date.now();
	await emulator.call('PLAY', '/solution/installation/5002');
	const created = await emulator.call('POST', '/solution/101/installation', {
		title: 'Created by the e2e test',
		templateIds: [1011],
		credentialData: {
			crm: 'hubspot',
			hubspotPipeline: 'sales',
			hubspotStage: 'new',
			mailer: 'mailchimp',
		},
	});
	console.log(
		`    changed the emulator (PLAY 5002, installed ${created.id}); waiting for the next poll (every minute)…`,
	);

	const events = await checks.step('the trigger fires within one poll interval', () =>
		waitFor(
			'executions with both events',
			async () => {
				const seen = await triggerEvents(n8n, WORKFLOWS.trigger.id, triggerName, nextName);
				const started5002 = seen.find(
					(e) => e.event === 'installationStarted' && e.installationId === 5002,
				);
				const createdNew = seen.find(
					(e) => e.event === 'installationCreated' && e.installationId === created.id,
				);
				return started5002 && createdNew ? { started5002, createdNew, seen } : undefined;
			},
			{ timeoutMs: TRIGGER_TIMEOUT_MS, intervalMs: 3000 },
		),
	);
	timings['trigger fired after (s)'] = Math.round((Date.now() - started) / 100) / 10;
	checks.ok(
		'installationStarted for 5002 (paused → active)',
		events.started5002.previousStatus === 0 && events.started5002.status === 1,
		JSON.stringify(events.started5002),
	);
	checks.equal(
		`installationCreated for ${created.id}`,
		events.createdNew.title,
		'Created by the e2e test',
	);
	checks.ok(
		`next node read installation ${created.id} with its automations`,
		Object.keys(events.createdNew.detail?.bundles ?? {}).length > 0,
		JSON.stringify(events.createdNew.detail),
	);
	checks.equal('no other events (nothing fired twice)', events.seen.length, 2);
	const calls = (await emulator.requests()).map((r) => `${r.method} ${r.path}`);
	checks.ok(
		'emulator: n8n read the new installation',
		calls.includes(`GET /solution/installation/${created.id}`),
		calls.join('\n'),
	);
}

// ---- main -------------------------------------------------------------------------------

async function main() {
	const checks = new Checks();
	const runStarted = Date.now();
	let n8n;
	let emulator;
	try {
		const install = await timed('n8n set-up (s)', () => ensureN8n());
		emulator = await Emulator.start(repoRoot);
		n8n = await N8nInstance.create(install, repoRoot);
		console.log(`emulator ${emulator.baseUrl}; n8n user folder ${n8n.userFolder}`);

		let workflows;
		await checks.group("Import through n8n's CLI", async () => {
			workflows = await checks.step('import:credentials and import:workflow (the examples)', () =>
				timed('imports (s)', () =>
					importFixtures(n8n, repoRoot, emulator, (line) => console.log(`    ${line}`)),
				),
			);
		});
		if (!workflows) throw new Error('nothing imported: stopping');

		await checks.group('Onboarding journey (n8n execute)', () =>
			checkOnboarding(checks, n8n, emulator, workflows.onboarding),
		);
		await checks.group('Error output (n8n execute)', () =>
			checkErrorOutput(checks, n8n, emulator, repoRoot),
		);
		await checks.group('Polling trigger (active workflow in a running n8n)', () =>
			timed('trigger test (s)', () => checkTrigger(checks, n8n, emulator, workflows.trigger)),
		);
		// Its checks are done. Left active, its polls (every minute) reach the emulator during the
		// groups that check that nothing else did ("nothing reached the service from those calls").
		if (n8n.server) await deactivateWorkflow(n8n, WORKFLOWS.trigger.id);

		if (process.env.N8N_E2E_SKIP_BROWSER === '1') {
			console.log('\nEditor (Chromium): skipped (N8N_E2E_SKIP_BROWSER=1)');
		} else if (!n8n.server) {
			checks.ok('Editor (Chromium): n8n is running', false, 'n8n did not start, see above');
		} else {
			await emulator.reset(); // pickers checked against the fixtures
			await checks.group('Editor (Chromium)', () =>
				timed('browser test (s)', async () => {
					const shots = await runBrowserTest({
						baseUrl: n8n.baseUrl,
						emulator,
						checks,
						failureDir: n8n.userFolder,
					});
					console.log(`    screenshots: ${shots.join(', ')}`);
				}),
			);
			await checks.group('Editor in partner mode (Chromium)', () =>
				timed('partner browser test (s)', async () => {
					const shots = await runPartnerBrowserTest({
						baseUrl: n8n.baseUrl,
						emulator,
						checks,
						failureDir: n8n.userFolder,
					});
					console.log(`    screenshots: ${shots.join(', ')}`);
				}),
			);
			// Needs the partner credential the partner-mode editor test made.
			await checks.group(
				'Editor: Ensure onboarding, Run Failed sample, reopened workflow (Chromium)',
				() =>
					timed('ensure browser test (s)', async () => {
						const shots = await runEnsureBrowserTest({
							baseUrl: n8n.baseUrl,
							emulator,
							checks,
							failureDir: n8n.userFolder,
						});
						console.log(`    screenshots: ${shots.join(', ')}`);
					}),
			);
			// In an n8n and emulator of its own (its standalone run): what the groups before it leave
			// (end users, installations, credentials) changes what its first onboarding's pickers load.
			await checks.group('Editor: the four fleet examples and a first onboarding (Chromium)', () =>
				timed('examples browser test (s)', () => examplesInTheirOwnN8n(checks)),
			);
		}
		// After the editor: its new nodes would otherwise pick the partner credential, the newest one.
		if (n8n.server)
			await checks.group('Partner mode (webhook onboarding, nightly run)', () =>
				timed('partner test (s)', () => checkPartnerMode(checks, n8n, emulator, repoRoot)),
			);
		// Billing: needs the partner credential (imported above).
		if (n8n.server)
			await checks.group('Billing: usage top-up, plans, block', () =>
				timed('billing (s)', () => checkBilling(checks, n8n, emulator, repoRoot)),
			);
		// Needs the partner credential (imported above); several groups share one trigger wait.
		if (n8n.server)
			await checks.group('Customers: runs and connections (issues 21, 22)', () =>
				timed('runs and connections (s)', () =>
					checkRunsAndConnections(checks, n8n, emulator, repoRoot),
				),
			);
		// Need the partner credential (imported by partner mode).
		for (const [group, label, check] of FLEET_GROUPS)
			if (n8n.server)
				await checks.group(group, () => timed(label, () => check(checks, n8n, emulator, repoRoot)));
		if (n8n.server)
			await checks.group('Strict readings: credential test, Check Connection', () =>
				timed('strict readings (s)', () => checkStrictAuth(checks, n8n, emulator)),
			);
	} catch (error) {
		checks.ok('end-to-end run', false, error instanceof Error ? error.stack : String(error));
	} finally {
		if (n8n?.server && checks.failed) console.log(`\nn8n server log: ${n8n.logFile}`);
		await n8n?.stop();
		await emulator?.close();
		await killAll();
		if (n8n && process.env.N8N_E2E_KEEP !== '1' && !checks.failed)
			await rm(n8n.userFolder, { recursive: true, force: true });
	}
	timings['total (s)'] = Math.round((Date.now() - runStarted) / 100) / 10;
	console.log(
		`\ntimings: ${Object.entries(timings)
			.map(([k, v]) => `${k} ${v}`)
			.join(', ')}`,
	);
	console.log(checks.summary());
	process.exitCode = checks.failed ? 1 : 0;
}

// Run when started as a script; e2e:compat imports the checks above.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
	await main();
