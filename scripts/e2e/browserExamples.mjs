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

import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import {
	addAction,
	inEditor,
	openLocatorList,
	openOptions,
	openOurNodeInPanel,
	pickFromLocator,
	pickOption,
	refreshMapper,
	UI_TIMEOUT,
} from './browser.mjs';
import { firstHourIn, partnerCredential } from './browserFirstHour.mjs';
import { Checks } from './lib/checks.mjs';
import { waitFor } from './lib/proc.mjs';
import { customerSession, installFor } from './partner.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LONG = 3 * UI_TIMEOUT; // an execution on a busy machine
const TAG = Date.now().toString(36); // unique customers per run: the standalone run can be repeated
const customer = (name) => `ex-${TAG}-${name}`;
/** c1: own subject, active; c2: own subject and delay, paused; c3: an end user, no installation. */
const C1 = customer('c1');
const C2 = customer('c2');
const C3 = customer('c3');
const OWN = {
	[C1]: { subject: `Hi from ${C1}` },
	[C2]: { subject: `Hi from ${C2}`, cf__4c2d9e8f0a1b4c3d: 30 },
};
const FLEET_TITLE = 'CRM Leads to Mailer';
const NEW_SUBJECT = 'Welcome to the new plan';
const TABLE = 'Fleet change snapshots';
const TEMPLATE = 'New lead → welcome email';
const MAIL_STEP = 'Send welcome email';
const DELAY = 'cf__4c2d9e8f0a1b4c3d';
const READING_POSTS = /\/wl\/[^/]+\/(get-user-session-token|get-user-profile|get-own-credential)$/;
const isWrite = (r) => r.method !== 'GET' && !(r.method === 'POST' && READING_POSTS.test(r.path));

// ---- the editor, as a partner uses it ------------------------------------------------------

const canvasNode = (page, name) =>
	page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
const input = (page, name) =>
	page.getByTestId(`parameter-input-${name}`).locator('input, textarea').first();

/** A new workflow from an example file: the input "Import from File…" opens. Returns its ID. */
async function importExample(page, baseUrl, file, aNodeName) {
	await page.goto(`${baseUrl}/workflow/new`);
	await page
		.getByTestId('workflow-import-input')
		.setInputFiles(path.join(repoRoot, 'examples', file));
	await canvasNode(page, aNodeName).waitFor({ timeout: UI_TIMEOUT });
	// n8n saves an imported workflow at once and puts its ID in the address.
	await page.waitForURL(/\/workflow\/[A-Za-z0-9]+(\?|$)/, { timeout: UI_TIMEOUT });
	return /\/workflow\/([A-Za-z0-9]+)/.exec(page.url())[1];
}

async function openNode(page, name) {
	await canvasNode(page, name).dblclick();
	await page.getByTestId('ndv').waitFor({ timeout: UI_TIMEOUT });
}

async function closeNode(page) {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
}

/** The credential select shows the chosen credential's name; choose `name` unless it is chosen. */
async function pickCredential(page, name) {
	const select = page.getByTestId('node-credentials-select');
	await select.waitFor({ timeout: UI_TIMEOUT });
	const chosen = () => select.locator('input').first().inputValue();
	if ((await chosen()) === name) return;
	await select.click();
	await page.getByRole('option').filter({ hasText: name }).first().click();
	await waitFor(`credential "${name}" chosen`, async () => (await chosen()) === name, {
		timeoutMs: UI_TIMEOUT,
		intervalMs: 200,
	});
}

/** Open each Albato node of the workflow and pick the partner's credential there. */
async function pickCredentialEverywhere(page, nodeNames, credentialName) {
	for (const name of nodeNames) {
		await openNode(page, name);
		await pickCredential(page, credentialName);
		await closeNode(page);
	}
}

/**
 * What a partner sees once the example is open and the credential picked: its sticky note saying
 * what to replace (`note`), and no warning triangle on its Albato nodes.
 */
async function checkOpened(page, checks, example, albatoNodes, note) {
	const sticky = page.locator('[data-node-type="n8n-nodes-base.stickyNote"]').first();
	const text = (await sticky.innerText().catch(() => '')).replace(/\s+/g, ' ');
	checks.ok(
		`${example}: opens with its sticky note (${note})`,
		note.test(text),
		text.slice(0, 400),
	);
	const warned = [];
	for (const name of albatoNodes)
		if ((await canvasNode(page, name).getByTestId('node-issues').count()) > 0) warned.push(name);
	checks.equal(
		`${example}: no warning on its Albato nodes once the credential is picked`,
		warned,
		[],
	);
}

/**
 * Replace the JSON of a Set node in raw mode (its "JSON Output" code editor): the keys go to the
 * editor itself (select all, then the text inserted as one input, as a paste does; typed brackets
 * would be closed twice by the editor).
 */
async function setJson(page, nodeName, value) {
	const text = JSON.stringify(value);
	await openNode(page, nodeName);
	const editor = page.getByTestId('parameter-input-jsonOutput').locator('.cm-content').first();
	await editor.click();
	await editor.press('Control+A');
	await editor.press('Delete');
	await page.keyboard.insertText(text);
	await waitFor(
		`${nodeName}'s JSON replaced`,
		async () => (await editor.innerText()).replace(/\s+/g, '') === text.replace(/\s+/g, ''),
		{ timeoutMs: UI_TIMEOUT, intervalMs: 200 },
	);
	await closeNode(page);
}

/**
 * Run the workflow from its "Run now" trigger's button and wait for the stored execution (n8n
 * saves manual executions); returns it with its run data decoded.
 */
async function runNow(page, n8n, workflowId) {
	const before = new Set((await n8n.executions(workflowId)).map((e) => String(e.id)));
	// The trigger's own button shows when the pointer is on the trigger ("Run now").
	await canvasNode(page, 'Run now').hover();
	await page.getByTestId('execute-workflow-button-Run now').click();
	const done = await waitFor(
		'the execution started from the editor to finish',
		async () =>
			(await n8n.executions(workflowId)).find(
				(e) => !before.has(String(e.id)) && e.stoppedAt && !['running', 'new'].includes(e.status),
			),
		{ timeoutMs: 4 * LONG, intervalMs: 1000 },
	);
	const execution = await n8n.execution(done.id);
	return { id: String(done.id), status: execution.status, data: execution.data };
}

const outputOf = (run, name) =>
	(run.data.resultData.runData[name]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);

/** What the node's output panel shows (its error, for a failed node), as one line of text. */
async function shownOutput(page, nodeName, expect) {
	await openNode(page, nodeName);
	const output = page.getByTestId('output-panel');
	let text = '';
	await waitFor(
		`${nodeName}'s output to show ${expect}`,
		async () => expect.test((text = (await output.innerText()).replace(/\s+/g, ' '))),
		{ timeoutMs: UI_TIMEOUT, intervalMs: 300 },
	).catch(() => {});
	await closeNode(page);
	return text;
}

// ---- the emulator's side ----------------------------------------------------------------------

/** Each customer's installations titled `title`: status and "step → code" values. */
function installationsOf(state, userId, title) {
	return state.installations
		.filter((i) => i.userId === userId && i.title === title)
		.map((installation) => {
			const fields = {};
			for (const record of state.bundleData.filter((r) =>
				installation.bundleIds.includes(r.bundleId),
			))
				for (const field of record.fields) fields[`${record.title} → ${field.name}`] = field.value;
			return {
				id: installation.id,
				bundleIds: installation.bundleIds,
				status: installation.status,
				fields,
			};
		});
}

/** c1 and c2 with the installation and their own values (c2 paused), c3 an end user with none. */
async function prepareFleet(emulator, partner) {
	for (const id of [C1, C2, C3]) {
		const asUser = await customerSession(emulator, partner, id);
		if (id === C3) continue;
		const installationId = await installFor(asUser, FLEET_TITLE, false);
		const state = await emulator.state();
		const { bundleIds } = state.installations.find((i) => i.id === installationId);
		const mail = state.bundleData.find(
			(r) => bundleIds.includes(r.bundleId) && r.title === MAIL_STEP,
		);
		await asUser('PUT', `/bundle/data/${mail.id}`, { data: OWN[id] });
		if (id === C1) await asUser('PLAY', `/solution/installation/${installationId}`);
	}
}

// ---- 1–2. fleet change, then restore -----------------------------------------------------------

async function fleetChangeAndRestore(page, ctx) {
	const { baseUrl, n8n, emulator, checks, partner, credentialName } = ctx;
	const userOf = (id) => `${partner.name}:${id}`;
	await prepareFleet(emulator, partner);
	const before = installationsOf(await emulator.state(), userOf(C1), FLEET_TITLE)
		.concat(installationsOf(await emulator.state(), userOf(C2), FLEET_TITLE))
		.map(({ status, fields }) => ({ status, fields }));

	checks.equal(
		'emulator before the change: c1 active with its own subject, c2 paused with its own subject and delay',
		before.map(({ status, fields }) => [
			status,
			fields[`${MAIL_STEP} → subject`],
			fields[`${MAIL_STEP} → ${DELAY}`] === 30,
		]),
		[
			[1, OWN[C1].subject, false],
			[0, OWN[C2].subject, true],
		],
	);

	const changeId = await checks.step(
		'fleet-change: imported, credential picked in its 3 Albato nodes, customers typed',
		async () => {
			const id = await importExample(page, baseUrl, 'fleet-change.workflow.json', 'Report');
			await pickCredentialEverywhere(
				page,
				['Find the installation', 'Get snapshot', 'Ensure new subject'],
				credentialName,
			);
			await setJson(page, 'Customers to change', {
				customers: [C1, C2, C3].map((customerId) => ({ customerId })),
			});
			return id;
		},
	);
	await checkOpened(
		page,
		checks,
		'fleet-change',
		['Find the installation', 'Get snapshot', 'Ensure new subject'],
		/Preview first: open Ensure new subject → Request Options → Add Option → Preview/,
	);

	const change = await checks.step('fleet-change: "Run now" executes from the editor', () =>
		runNow(page, n8n, changeId),
	);
	checks.equal('fleet-change: execution status', change.status, 'success');
	const report = outputOf(change, 'Report')[0] ?? {};
	checks.equal(
		'fleet-change report: all 3 changed, none failed or not attempted, 2 snapshots, c3 has none',
		{
			changed: [...(report.changed ?? [])].sort(),
			failed: report.failed,
			notAttempted: report.notAttempted,
			kept: report.snapshots?.kept,
			noSnapshot: report.snapshots?.noSnapshot,
		},
		{ changed: [C1, C2, C3], failed: [], notAttempted: [], kept: 2, noSnapshot: [C3] },
	);
	checks.equal(
		"fleet-change report: snapshots.executionId is this execution's ID",
		String(report.snapshots?.executionId),
		change.id,
	);
	const changed = await emulator.state();
	for (const id of [C1, C2, C3]) {
		const mine = installationsOf(changed, userOf(id), FLEET_TITLE);
		checks.ok(
			`emulator: ${id} has one "${FLEET_TITLE}", active, subject "${NEW_SUBJECT}"`,
			mine.length === 1 &&
				mine[0].status === 1 &&
				mine[0].fields[`${MAIL_STEP} → subject`] === NEW_SUBJECT,
			JSON.stringify(mine),
		);
	}

	// ---- the restore
	const restoreId = await checks.step(
		'fleet-restore: imported, credential picked in Restore',
		async () => {
			const id = await importExample(page, baseUrl, 'fleet-restore.workflow.json', 'Restore');
			await pickCredentialEverywhere(page, ['Restore'], credentialName);
			return id;
		},
	);
	await checkOpened(page, checks, 'fleet-restore', ['Restore'], /snapshots\.firstExecutionId/);

	const wrong = [
		['', /executionId is empty/],
		['999999', /has no row of execution '999999'/],
	];
	for (const [executionId, why] of wrong) {
		const label =
			executionId === '' ? 'an empty execution ID' : `a wrong execution ID (${executionId})`;
		const logged = (await emulator.requests()).length;
		const run = await checks.step(`fleet-restore with ${label}: runs from the editor`, async () => {
			await setJson(page, 'Customers to restore', { executionId, customerIds: [C1, C2] });
			return runNow(page, n8n, restoreId);
		});
		const named = `No snapshot of ${C1}, ${C2} in execution '${executionId}'`;
		checks.ok(
			`fleet-restore with ${label}: the execution failed in "Match the customers", Restore never ran`,
			run.status === 'error' &&
				run.data.resultData.lastNodeExecuted === 'Match the customers' &&
				!run.data.resultData.runData.Restore,
			() =>
				`${run.status} ${run.data.resultData.lastNodeExecuted} ${JSON.stringify(run.data.resultData.error ?? {}).slice(0, 500)}`,
		);
		const shown = await checks.step(`fleet-restore with ${label}: the node's error is shown`, () =>
			shownOutput(page, 'Match the customers', /snapshots\.firstExecutionId/),
		);
		checks.ok(
			`fleet-restore with ${label}: the editor shows "${named}", why, and where the right ID is (snapshots.firstExecutionId)`,
			shown.includes(named) &&
				why.test(shown) &&
				/snapshots\.firstExecutionId in the output of its Report node/.test(shown),
			shown.slice(0, 700),
		);
		const writes = (await emulator.requests()).slice(logged).filter(isWrite);
		checks.equal(
			`fleet-restore with ${label}: nothing written`,
			writes.map((r) => `${r.method} ${r.path}`),
			[],
		);
	}
	const restore = await checks.step(
		`fleet-restore with the change's execution ID (${change.id}): runs from the editor`,
		async () => {
			await setJson(page, 'Customers to restore', {
				executionId: change.id,
				customerIds: [C1, C2, C3],
			});
			return runNow(page, n8n, restoreId);
		},
	);
	checks.equal('fleet-restore: execution status', restore.status, 'success');
	const restored = outputOf(restore, 'Report')[0] ?? {};
	checks.equal(
		'fleet-restore report: c1 and c2 restored, c3 named as having no snapshot',
		{
			restored: [...(restored.restored ?? [])].sort(),
			failed: restored.failed,
			noSnapshot: restored.noSnapshot,
		},
		{ restored: [C1, C2], failed: [], noSnapshot: [C3] },
	);
	const after = await emulator.state();
	const now = [C1, C2].flatMap((id) =>
		installationsOf(after, userOf(id), FLEET_TITLE).map(({ status, fields }) => ({
			status,
			fields,
		})),
	);
	checks.equal(
		'emulator: c1 and c2 have the status and every field value of before the change (c2 paused, its delay 30)',
		now,
		before,
	);
	checks.ok(
		'emulator: c3 (not restored: no snapshot) keeps the new subject',
		installationsOf(after, userOf(C3), FLEET_TITLE)[0]?.fields[`${MAIL_STEP} → subject`] ===
			NEW_SUBJECT,
	);
}

// ---- 3. fleet watch ---------------------------------------------------------------------------

async function fleetWatch(page, ctx) {
	const { baseUrl, n8n, emulator, checks, partner, credentialName } = ctx;
	const state = await emulator.state();
	const installationOf = (id) =>
		installationsOf(state, `${partner.name}:${id}`, FLEET_TITLE)[0] ?? { bundleIds: [] };
	const record = (id, outcome) =>
		emulator.control('POST', '/runs', {
			bundleId: installationOf(id).bundleIds[0],
			outcome,
			...(outcome === 'failed'
				? { steps: [[{}], [{ status: 'failed', error: 'Mailer refused the address (e2e)' }]] }
				: {}),
		});
	await record(C1, 'failed');
	await record(C3, 'succeeded');
	const id = await checks.step(
		'fleet-watch: imported, credential picked, customers typed',
		async () => {
			const workflowId = await importExample(
				page,
				baseUrl,
				'fleet-watch.workflow.json',
				'Compose the message',
			);
			await pickCredentialEverywhere(page, ['New failures, as incidents'], credentialName);
			await setJson(page, 'Customers', {
				customers: [C1, C3].map((customerId) => ({ customerId })),
			});
			return workflowId;
		},
	);
	await checkOpened(
		page,
		checks,
		'fleet-watch',
		['New failures, as incidents'],
		/Replace Customers with your own list.*Publish/,
	);

	const run = await checks.step('fleet-watch: "Run now" executes from the editor', () =>
		runNow(page, n8n, id),
	);
	checks.equal('fleet-watch: execution status', run.status, 'success');
	const messages = outputOf(run, 'Compose the message');
	checks.equal(
		`fleet-watch: one message, for ${C1}'s failing automation, by its title`,
		messages.map((m) => m.subject),
		[`Automation failing for ${C1}: ${TEMPLATE}`],
	);
	checks.ok(
		'fleet-watch: the message names the failing step and its error',
		new RegExp(`Failing step: ${MAIL_STEP} \\(level \\d+\\): Mailer refused the address`).test(
			messages[0]?.text ?? '',
		),
		messages[0]?.text,
	);
	checks.equal(
		'fleet-watch: no customer on "Customers not read this time"',
		outputOf(run, 'Customers not read this time').length,
		0,
	);
}

// ---- 4. usage top-up ----------------------------------------------------------------------------

async function usageTopUp(page, ctx) {
	const { baseUrl, n8n, emulator, checks, credentialName } = ctx;
	for (const [id, used] of [
		[C1, 950],
		[C2, 920],
		[C3, 500],
	])
		await emulator.control('POST', '/end-users/transactions', { id, used });
	const id = await checks.step(
		'usage-topup: imported, credential picked in its 3 Albato nodes, customers typed',
		async () => {
			const workflowId = await importExample(page, baseUrl, 'usage-topup.workflow.json', 'Report');
			await pickCredentialEverywhere(
				page,
				['Usage', 'Set Plan', 'Add Transactions'],
				credentialName,
			);
			await setJson(page, 'Customer list', {
				customers: [
					{ customerId: C1, whenLow: 'addTransactions' },
					{ customerId: C2, whenLow: 'setPlan', upgradeToPlanId: 23 },
					{ customerId: C3, whenLow: 'addTransactions' },
				],
			});
			return workflowId;
		},
	);
	await checkOpened(
		page,
		checks,
		'usage-topup',
		['Usage', 'Set Plan', 'Add Transactions'],
		/It bills\..*every night they stay low/,
	);

	const logged = (await emulator.requests()).length;
	const run = await checks.step('usage-topup: "Run now" executes from the editor', () =>
		runNow(page, n8n, id),
	);
	checks.equal('usage-topup: execution status', run.status, 'success');
	const report = outputOf(run, 'Report');
	checks.equal(
		'usage-topup report: one item, every customer once, what was done',
		[
			report.length,
			(report[0]?.customers ?? []).map((r) => `${r.customer}: ${r.action} (${r.leftBefore})`),
		],
		[
			1,
			[
				`${C1}: added 1000 transactions (50 of 1000)`,
				`${C2}: plan set to 23 (80 of 1000)`,
				`${C3}: none: not low (500 of 1000)`,
			],
		],
	);
	const calls = (await emulator.requests()).slice(logged).filter(isWrite);
	checks.equal(
		'emulator: exactly one top-up and one plan change',
		calls.map((r) => `${r.path.replace(/^\/wl\/[^/]+\//, '')} ${JSON.stringify(r.body)}`).sort(),
		[
			`add-user-plan-transactions {"id":"${C1}","count":1000}`,
			`set-user-plan {"id":"${C2}","planId":23}`,
		].sort(),
	);
}

// ---- 5. a first onboarding with Field Values ------------------------------------------------

const ONBOARD = {
	customer: customer('first'),
	title: 'First onboarding – lead sync',
	subject: 'Welcome aboard',
};

/** Switch a parameter to Expression (its Fixed / Expression toggle) and type `text` into it. */
async function typeAsExpression(page, parameter, text) {
	await typeAsExpressionIn(page, 0, parameter, text);
}

/** The parameter's own row (label, Fixed / Expression, issues): its nearest "parameter-item". */
const itemOf = (target) => target.locator('xpath=ancestor::*[@data-test-id="parameter-item"][1]');

/** The message of the red triangle (parameter issues) next to a parameter, from its tooltip. */
async function issueMessage(page, parameter, expect) {
	const issues = itemOf(page.getByTestId(`parameter-input-${parameter}`).first()).getByTestId(
		'parameter-issues',
	);
	await issues.waitFor({ timeout: UI_TIMEOUT });
	await issues.hover();
	const tooltip = page.getByText(expect).last();
	await tooltip.waitFor({ timeout: UI_TIMEOUT });
	return (await tooltip.innerText()).replace(/\s+/g, ' ');
}

async function firstOnboarding(page, ctx) {
	const { baseUrl, emulator, checks, partner, credentialName } = ctx;
	await customerSession(emulator, partner, ONBOARD.customer);
	const userId = `${partner.name}:${ONBOARD.customer}`;
	checks.equal(
		`emulator: ${ONBOARD.customer} is an end user with no installation`,
		(await emulator.state()).installations.filter((i) => i.userId === userId).length,
		0,
	);
	await page.goto(`${baseUrl}/workflow/new`);
	await page.getByTestId('canvas-plus-button').waitFor({ timeout: UI_TIMEOUT });
	await checks.step('first onboarding: Ensure added, partner credential, End User ID', async () => {
		await openOurNodeInPanel(page, () => page.getByTestId('canvas-plus-button').click());
		await addAction(page, 'Ensure an installation exists in the desired state');
		await pickCredential(page, credentialName);
		await page.getByTestId('parameter-input-endUserId').waitFor({ timeout: UI_TIMEOUT });
		await input(page, 'endUserId').fill(ONBOARD.customer);
	});
	await checks.step(
		'first onboarding: Solution, Title, connection settings, template',
		async () => {
			await openLocatorList(page, 'solutionId');
			await pickFromLocator(page, '(101)');
			await page.getByTestId('parameter-input-crm').waitFor({ timeout: UI_TIMEOUT });
			await input(page, 'title').fill(ONBOARD.title);
			for (const [step, value] of [
				['crm', 'Pipedrive'],
				['mailer', 'Mailchimp'],
			]) {
				await openOptions(page, step);
				await pickOption(page, value);
			}
			await refreshMapper(page);
			await page.getByTestId('parameter-input-pipedriveFilter').waitFor({ timeout: UI_TIMEOUT });
			await openOptions(page, 'pipedriveFilter');
			await pickOption(page, 'All deals');
			await openOptions(page, 'templateIds');
			await pickOption(page, TEMPLATE);
			await page.getByTestId('parameter-input-templateIds').press('Escape');
		},
	);
	const automations = await checks.step(
		'first onboarding: Field Values → Automation picker loads (from the templates)',
		async () => {
			await page
				.getByTestId('fixed-collection-add-top-level-button')
				.or(page.getByRole('button', { name: 'Add Field Value' }))
				.first()
				.click();
			await page.getByTestId('parameter-input-automation').waitFor({ timeout: UI_TIMEOUT });
			const listed = await openOptions(page, 'automation');
			await pickOption(page, TEMPLATE);
			return listed;
		},
	);
	checks.ok(
		`Automation picker offers "${TEMPLATE}"`,
		automations.some((text) => text.includes(TEMPLATE)),
		automations.join(' | '),
	);
	// No installation of the solution anywhere for this customer: the Step list cannot load. n8n
	// shows the list's error message in the red triangle's tooltip: it must say what to type.
	const message = await checks.step('first onboarding: Step shows why it cannot list', () =>
		issueMessage(page, 'step', /No installation of solution 101/),
	);
	checks.ok(
		"Step's message says to switch Step and Field to Expression and type the step's title and the field's label or code",
		/switch Step to Expression and type the step's title/.test(message) &&
			/Field to Expression and type the field's label as the step shows it \(or its code\)/.test(
				message,
			),
		message,
	);
	await checks.step(
		'first onboarding: Step and Field typed as the message says, Value typed',
		async () => {
			await typeAsExpression(page, 'step', MAIL_STEP);
			await fieldListReloaded(page, 0);
			await typeAsExpression(page, 'code', 'Subject');
			await input(page, 'value').fill(ONBOARD.subject);
			await nodeHolds(page, 'value', ONBOARD.subject);
		},
	);
	// What the node holds, not what the open panel shows: closed and opened again.
	const reopened = async () => {
		await closeNode(page);
		await canvasNode(page, 'Ensure an installation exists in the desired state').dblclick();
		await page.getByTestId('ndv').waitFor({ timeout: UI_TIMEOUT });
		await page.getByTestId('parameter-input-code').first().waitFor({ timeout: UI_TIMEOUT });
		const texts = async (name) =>
			Promise.all(
				(await page.getByTestId(`parameter-input-${name}`).all()).map(async (field) =>
					(
						await field.evaluate((el) =>
							[el.innerText, ...[...el.querySelectorAll('input')].map((i) => i.value)].join(' '),
						)
					).trim(),
				),
			);
		return { step: await texts('step'), code: await texts('code') };
	};
	const held = ({ step, code }) => step[0]?.includes(MAIL_STEP) && code[0]?.includes('Subject');
	const kept = await checks.step('first onboarding: the node reopened shows what was typed', () =>
		reopened(),
	);
	checks.ok(
		'first onboarding: the entry keeps Step and Field as typed',
		kept.step.length === 1 && held(kept),
		JSON.stringify(kept),
	);
	const output = await checks.step('first onboarding: "Execute step" succeeds', async () => {
		await page.getByTestId('node-execute-button').click();
		const panel = page.getByTestId('output-panel');
		const mode = panel.getByTestId('ndv-run-data-display-mode');
		await mode.waitFor({ timeout: LONG });
		await mode.getByText('JSON', { exact: true }).click();
		let text = '';
		await waitFor(
			'the output to show "created"',
			async () => /"created":/.test((text = (await panel.innerText()).replace(/\s+/g, ' '))),
			{ timeoutMs: LONG, intervalMs: 500 },
		);
		return text;
	});
	checks.ok(
		'first onboarding output: "created": true',
		/"created": true/.test(output),
		output.slice(0, 600),
	);
	const mine = installationsOf(await emulator.state(), userId, ONBOARD.title);
	checks.ok(
		`emulator: ${ONBOARD.customer} has the installation with the subject "${ONBOARD.subject}"`,
		mine.length === 1 && mine[0].fields[`${MAIL_STEP} → subject`] === ONBOARD.subject,
		JSON.stringify(mine),
	);
	await closeNode(page);
}

/**
 * Field's list depends on Step: once Step's value reaches the node, Field's list loads again (and
 * fails the same way, no installation yet). Typed into before that, Field was seen emptied by the
 * reload on a busy machine, though the editor still showed the text: wait for it.
 */
async function fieldListReloaded(page, index) {
	const field = page.getByTestId('parameter-input-code').nth(index);
	const shown = () =>
		field.evaluate((el) => [...el.querySelectorAll('input')].map((i) => i.value).join(' '));
	await waitFor(
		`Field #${index + 1}'s list to reload after Step`,
		async () => /Error fetching options/.test(await shown()),
		{ timeoutMs: LONG, intervalMs: 200 },
	);
}

/** typeAsExpression for the `index`th parameter of that name (a second Field Values entry). */
async function typeAsExpressionIn(page, index, parameter, text) {
	const target = page.getByTestId(`parameter-input-${parameter}`).nth(index);
	const editor = target.locator('.cm-content').first();
	// The toggle shows on hover, and not while the list is loading: retried, bounded.
	const deadline = Date.now() + UI_TIMEOUT;
	for (;;) {
		await target.hover();
		await itemOf(target)
			.getByTestId('radio-button-expression')
			.click({ timeout: 4000 })
			.catch(() => {});
		if (
			await editor.waitFor({ timeout: 4000 }).then(
				() => true,
				() => false,
			)
		)
			break;
		if (Date.now() > deadline) throw new Error(`${parameter} #${index + 1}: no Expression toggle`);
	}
	await editor.click();
	await editor.press('Control+A');
	await editor.pressSequentially(text);
	await waitFor(
		`${parameter} #${index + 1}'s expression to read "${text}"`,
		async () => (await editor.innerText()).trim() === text,
		{ timeoutMs: UI_TIMEOUT, intervalMs: 200 },
	);
	// Leave the field (its value is handed to the node on blur; a Step changed after Field would
	// clear Field, which depends on it).
	await page.getByTestId('ndv').getByText('Parameters', { exact: true }).first().click();
	await waitFor(
		`${parameter} #${index + 1} to lose the focus`,
		async () => !(await editor.evaluate((el) => el.contains(el.ownerDocument.activeElement))),
		{ timeoutMs: UI_TIMEOUT, intervalMs: 100 },
	);
	// The inline expression editor hands its text to the node after a pause, and closing the panel
	// before then drops it (seen on a busy machine: Field empty on reopening). The red triangle is
	// no sign: it goes as soon as the bare "=" of the toggle arrives. So: until the node holds it.
	await nodeHolds(page, parameter, `=${text}`, index);
}

/**
 * Waits until the `index`th `parameter` of the open workflow's Albato node holds `value`: read from
 * the editor's workflow store (n8n 2.41's "workflowDocuments" stores, the node's own parameters).
 */
async function nodeHolds(page, parameter, value, index = 0) {
	const needle = JSON.stringify({ [parameter]: value }).slice(1, -1);
	const held = () =>
		page.evaluate((needle) => {
			// In the page: the editor's Vue app and its Pinia stores.
			const pinia =
				globalThis.document.querySelector('#app')?.__vue_app__?.config.globalProperties.$pinia;
			if (!pinia) return -1;
			let count = 0;
			for (const [id, store] of pinia._s)
				if (id.startsWith('workflowDocuments/'))
					for (const node of Object.values(store.allNodes ?? []))
						if (/albato/i.test(node.type))
							count += JSON.stringify(node.parameters).split(needle).length - 1;
			return count;
		}, needle);
	await waitFor(
		`${parameter} #${index + 1} to reach the node (${needle})`,
		async () => {
			const count = await held();
			if (count < 0) throw new Error("the editor's workflow store was not found");
			return count > index;
		},
		{ timeoutMs: LONG, intervalMs: 200 },
	);
}

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
	const { Emulator } = await import('./lib/emulator.mjs');
	const { ensureN8n } = await import('./lib/install.mjs');
	const { N8nInstance } = await import('./lib/n8n.mjs');
	const { killAll } = await import('./lib/proc.mjs');
	const checks = new Checks();
	const started = Date.now();
	let n8n;
	let emulator;
	const attach = process.env.EXAMPLES_E2E_ATTACH; // "<n8n URL> <emulator URL>": a running `npm run dev`
	if (attach) {
		const [baseUrl, emulatorUrl] = attach.split(' ');
		const attached = Object.assign(Object.create(N8nInstance.prototype), {
			baseUrl,
			install: await ensureN8n(),
		});
		await attached.loginOwner();
		const running = Object.assign(Object.create(Emulator.prototype), { baseUrl: emulatorUrl });
		await checks.group('Editor: fleet examples and a first onboarding (Chromium)', () =>
			runExamplesBrowserTest({ baseUrl, n8n: attached, emulator: running, checks }),
		);
		console.log(`\n${Math.round((Date.now() - started) / 1000)} s`);
		console.log(checks.summary());
		process.exitCode = checks.failed ? 1 : 0;
		return;
	}
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
		await checks.group('Editor: fleet examples and a first onboarding (Chromium)', () =>
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
	console.log(`\n${Math.round((Date.now() - started) / 1000)} s`);
	console.log(checks.summary());
	process.exitCode = checks.failed ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
