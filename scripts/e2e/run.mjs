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
import { checkPartnerMode } from './partnerMode.mjs';
import { checkRunsAndConnections } from './runs.mjs';
import { checkStrictAuth } from './strictAuth.mjs';
import { checkBilling } from './billing.mjs';
import { Checks } from './lib/checks.mjs';
import { Emulator } from './lib/emulator.mjs';
import { ensureN8n } from './lib/install.mjs';
import { N8nInstance } from './lib/n8n.mjs';
import { killAll } from './lib/proc.mjs';
import { importFixtures, WORKFLOWS } from './lib/setup.mjs';
import { deactivateWorkflow } from './lib/webhook.mjs';
import { checkOnboarding, checkTrigger, timings } from './journeyChecks.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

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

// ---- main -------------------------------------------------------------------------------

/** The editor tests (Chromium), unless skipped; each in the n8n of this run but the last. */
async function editorGroups(checks, n8n, emulator) {
	if (process.env.N8N_E2E_SKIP_BROWSER === '1')
		return console.log('\nEditor (Chromium): skipped (N8N_E2E_SKIP_BROWSER=1)');
	if (!n8n.server)
		return checks.ok('Editor (Chromium): n8n is running', false, 'n8n did not start, see above');
	await emulator.reset(); // pickers checked against the fixtures
	const editor = { baseUrl: n8n.baseUrl, emulator, checks, failureDir: n8n.userFolder };
	// The Ensure test needs the partner credential the partner-mode editor test made.
	for (const [group, timing, test] of [
		['Editor (Chromium)', 'browser test (s)', runBrowserTest],
		['Editor in partner mode (Chromium)', 'partner browser test (s)', runPartnerBrowserTest],
		[
			'Editor: Ensure onboarding, Run Failed sample, reopened workflow (Chromium)',
			'ensure browser test (s)',
			runEnsureBrowserTest,
		],
	])
		await checks.group(group, () =>
			timed(timing, async () => {
				const shots = await test(editor);
				console.log(`    screenshots: ${shots.join(', ')}`);
			}),
		);
	// In an n8n and emulator of its own (its standalone run): what the groups before it leave
	// (end users, installations, credentials) changes what its first onboarding's pickers load.
	await checks.group('Editor: the four fleet examples and a first onboarding (Chromium)', () =>
		timed('examples browser test (s)', () => examplesInTheirOwnN8n(checks)),
	);
}

/**
 * The groups against the running n8n, after the editor (its new nodes would otherwise pick the
 * partner credential, the newest one), in this order: billing, runs and connections and the fleet
 * groups (fleetGroups.mjs) need the partner credential (imported by partner mode); runs and
 * connections share one trigger wait.
 */
const SERVER_GROUPS = [
	['Partner mode (webhook onboarding, nightly run)', 'partner test (s)', checkPartnerMode],
	['Billing: usage top-up, plans, block', 'billing (s)', checkBilling],
	['Customers: runs and connections', 'runs and connections (s)', checkRunsAndConnections],
	...FLEET_GROUPS,
	['Strict readings: credential test, Check Connection', 'strict readings (s)', checkStrictAuth],
];

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

		await editorGroups(checks, n8n, emulator);
		if (n8n.server)
			for (const [group, timing, check] of SERVER_GROUPS)
				await checks.group(group, () =>
					timed(timing, () => check(checks, n8n, emulator, repoRoot)),
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
