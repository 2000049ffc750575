// The fleet examples and a first onboarding, in the editor, as a new partner goes through them
// (partner mode, the emulator behind n8n). Nothing is set up through n8n's CLI or REST API: each
// example is imported from its file (the input of the workflow menu's "Import from File…"), the
// partner's Albato Partner API credential is picked in every Albato node, the customer list typed
// into the Set node that holds it, and the workflow run with its "Run now" trigger's button. Each
// execution is then read back (n8n's REST API) and the emulator's state checked. Each example must
// open with its sticky note and, once the credential is picked, no warning on its Albato nodes.
//
//  1. fleet-change for 3 customers (own subject and active; own subject and paused; no installation
//     yet): every one ends with the new subject and active; the report says so, kept 2 snapshots and
//     names the customer with none.
//  2. fleet-restore: with an empty and with a wrong execution ID the run stops in "Match the
//     customers", with the message (shown in the node's output) that names the customers and says
//     where the right ID is (snapshots.firstExecutionId); nothing is written. With the change's ID it
//     restores both customers (subject, delay and status of before) and names the third as having no
//     snapshot.
//  3. fleet-watch (its "Run now"): a failed run of one customer gives one "Automation failing"
//     message naming the customer and the automation; a customer with a succeeded run gives none.
//  4. usage-topup: one customer tops up, one moves to plan 23, one is not low; the report lists
//     each once; the emulator got exactly those two calls.
//  5. A first onboarding with Installation → Ensure and Field Values, for an end user with no
//     installation: Solution, connection settings, template and Automation from their pickers; the
//     Step picker cannot load and its message (the red triangle's tooltip) says what to type; Step
//     and Field are switched to Expression and typed as it says. Executed from the editor: the
//     emulator then holds the installation with those field values.
//
// Used by run.mjs after the Ensure editor test (the partner credential exists by then). Alone:
// `node scripts/e2e/browserExamples.mjs` starts its own emulator and n8n (the cached install), with
// a partner credential imported under another name than the examples' (so it has to be picked).
// The Data Table "Fleet change snapshots" it makes is deleted at the end (fleet.mjs makes its own).
//
// The parts: browserExamplesCustomers.mjs (the customers, the emulator's side),
// browserExamplesFleet.mjs (1–2), browserExamplesJobs.mjs (3–4), browserExamplesOnboarding.mjs
// (5); lib/exampleEditor.mjs and lib/expressionEditor.mjs (the editor, as a partner uses it).

import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { inEditor } from './browser.mjs';
import { firstHourIn, partnerCredential } from './browserFirstHour.mjs';
import { TABLE } from './browserExamplesCustomers.mjs';
import { fleetChangeAndRestore } from './browserExamplesFleet.mjs';
import { fleetWatch, usageTopUp } from './browserExamplesJobs.mjs';
import { firstOnboarding } from './browserExamplesOnboarding.mjs';
import { Checks } from './lib/checks.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const GROUP = 'Editor: fleet examples and a first onboarding (Chromium)';

// ---- the group ---------------------------------------------------------------------------------

/** Delete the Data Table the fleet-change example made (fleet.mjs checks its own from scratch). */
async function dropSnapshotTable(n8n) {
	const filter = encodeURIComponent(JSON.stringify({ name: TABLE }));
	const listed = await n8n.rest('GET', `/data-tables-global?filter=${filter}&take=50`);
	for (const table of (listed.data ?? listed).filter((t) => t.name === TABLE))
		await n8n.rest('DELETE', `/projects/${table.projectId}/data-tables/${table.id}`);
}

/**
 * `n8n`: an N8nInstance logged in as the owner (its REST API reads the executions back).
 * The partner credential picked is the newest of the Albato Partner API type.
 */
export async function runExamplesBrowserTest({
	baseUrl,
	n8n,
	emulator,
	checks,
	failureDir = os.tmpdir(),
	log = console.log,
}) {
	const partner = await emulator.control('GET', '/partner');
	const credential = await partnerCredential(n8n);
	const credentialName = credential.name;
	const ctx = { baseUrl, n8n, emulator, checks, partner, credentialName, credential, repoRoot };
	const editor = {
		baseUrl,
		checks,
		name: 'examples-browser',
		failureDir,
		log,
		cleanup: () =>
			dropSnapshotTable(n8n).catch((error) => log(`    snapshot table not deleted: ${error}`)),
	};
	await inEditor(editor, async (page) => {
		// Debugging: EXAMPLES_E2E_ONLY=fleet,watch,topup,onboarding,firstHour (any of them).
		const only = process.env.EXAMPLES_E2E_ONLY?.split(',');
		const runs = (group) => !only || only.includes(group);
		if (runs('fleet')) await fleetChangeAndRestore(page, ctx);
		if (runs('watch')) await fleetWatch(page, ctx);
		if (runs('topup')) await usageTopUp(page, ctx);
		if (runs('onboarding')) await firstOnboarding(page, ctx);
		if (runs('firstHour')) await firstHourIn(page, ctx);
	});
}

// Standalone: its own emulator and n8n (the cached install), a partner credential named otherwise
// than the examples' one, then the group above.
async function main() {
	const checks = new Checks();
	const started = Date.now();
	const attach = process.env.EXAMPLES_E2E_ATTACH; // "<n8n URL> <emulator URL>": a running `npm run dev`
	if (attach) await attachedTo(attach, checks);
	else await inItsOwnN8n(checks);
	console.log(`\n${Math.round((Date.now() - started) / 1000)} s`);
	console.log(checks.summary());
	process.exitCode = checks.failed ? 1 : 0;
}

/** The group against a running `npm run dev` (n8n and emulator URLs). */
async function attachedTo(attach, checks) {
	const { Emulator } = await import('./lib/emulator.mjs');
	const { ensureN8n } = await import('./lib/install.mjs');
	const { N8nInstance } = await import('./lib/n8n.mjs');
	const [baseUrl, emulatorUrl] = attach.split(' ');
	const attached = Object.assign(Object.create(N8nInstance.prototype), {
		baseUrl,
		install: await ensureN8n(),
	});
	await attached.loginOwner();
	const running = Object.assign(Object.create(Emulator.prototype), { baseUrl: emulatorUrl });
	await checks.group(GROUP, () =>
		runExamplesBrowserTest({ baseUrl, n8n: attached, emulator: running, checks }),
	);
}

/** The group in an emulator and n8n of its own, with a partner credential named otherwise. */
async function inItsOwnN8n(checks) {
	const { Emulator } = await import('./lib/emulator.mjs');
	const { ensureN8n } = await import('./lib/install.mjs');
	const { N8nInstance } = await import('./lib/n8n.mjs');
	const { killAll } = await import('./lib/proc.mjs');
	let n8n;
	let emulator;
	try {
		const install = await ensureN8n();
		emulator = await Emulator.start(repoRoot);
		n8n = await N8nInstance.create(install, repoRoot);
		const partner = await emulator.control('GET', '/partner');
		await n8n.importCredentials([
			{
				id: 'PartnerMine00001',
				name: 'Albato Partner (my account)',
				type: 'albatoPartnerApi',
				data: {
					baseUrl: emulator.baseUrl,
					partnerName: partner.name,
					masterToken: partner.masterToken,
				},
			},
		]);
		await n8n.start();
		await n8n.loginOwner();
		const groupStarted = Date.now();
		await checks.group(GROUP, () =>
			runExamplesBrowserTest({
				baseUrl: n8n.baseUrl,
				n8n,
				emulator,
				checks,
				failureDir: n8n.userFolder,
			}),
		);
		console.log(`\ngroup: ${Math.round((Date.now() - groupStarted) / 1000)} s`);
	} catch (error) {
		checks.ok(
			'examples in the editor',
			false,
			error instanceof Error ? error.stack : String(error),
		);
	} finally {
		if (n8n?.server && checks.failed) console.log(`n8n server log: ${n8n.logFile}`);
		await n8n?.stop();
		await emulator?.close();
		await killAll();
		if (n8n && !checks.failed && existsSync(n8n.userFolder) && process.env.N8N_E2E_KEEP !== '1')
			await rm(n8n.userFolder, { recursive: true, force: true });
	}
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
