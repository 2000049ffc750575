// The fleet change in real n8n (called from run.mjs while n8n runs, after partner mode imported the
// Albato Partner API credential): examples/fleet-change.workflow.json for 20 customers, and
// examples/fleet-restore.workflow.json. Before the change every customer but two has the
// installation "CRM Leads to Mailer": fleet-02 paused with its own subject and delay, fleet-20
// active with its own subject, the others active as installed. fleet-03 is an end user without the
// installation (Ensure installs it), fleet-08 is not an Albato end user yet.
//
//  1. run it: the snapshot branch keeps a row per installation in the Data Table "Fleet change
//     snapshots" (the workflow makes the table) before Ensure starts, each row holding the values
//     and status of before, the customers a stop leaves untouched included; fleet-08 has none (its
//     installations cannot be read) and fleet-03 none (nothing to write down). Then the 5 canaries
//     succeed, fleet-08 fails, Stop After Failures 2% stops the run halfway; every customer never
//     started is on the error output ("Not attempted: …", paired) and got nothing from Ensure
//     (only the snapshot's reads, before); the report counts changed, failed, not attempted, kept
//  2. fix (create fleet-08), run again: nothing written for those done in run 1; all end active
//     with the new subject; the report: no failure, run 1 the first; run 2's own rows, run 1's kept
//  3. the restore with an empty and with an unknown execution ID fails before any write, naming
//     both customers and where the right ID is (snapshots.firstExecutionId); then it restores
//     fleet-02 (changed by run 1) and fleet-20 (changed by run 2) from run 1's rows: exactly the
//     field values and status of before, nothing written for anyone else; again, nothing written
//
// The Data Table node needs n8n's data-table module, which `n8n execute` does not start (n8n 2.41
// starts modules only in `n8n start`, `worker` and `webhook`): so both workflows run in the running
// n8n, started by a webhook put in place of their manual trigger, and are read back through the
// REST API. Every n8n routes an item to the error output when its json holds only error and message
// (the node's version 3): this proves the not-attempted items really leave there.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { readFile } from 'node:fs/promises';

import { waitFor } from './lib/proc.mjs';
import { activateWorkflow, callWebhook, deactivateWorkflow } from './lib/webhook.mjs';
import { customerSession, installFor } from './partner.mjs';

const FLEET = {
	id: 'AlbatoFleetChng1',
	file: 'examples/fleet-change.workflow.json',
	trigger: 'Run now',
	webhookPath: 'albato-e2e-fleet-change',
	webhookId: '3c9e2b0a-5f4d-4e7a-9a61-0d2f6b8c1e45',
};
const RESTORE = {
	id: 'AlbatoFleetRstr1',
	file: 'examples/fleet-restore.workflow.json',
	trigger: 'Run now',
	webhookPath: 'albato-e2e-fleet-restore',
	webhookId: '8a1f4c6e-2b7d-4f3a-b5e9-6c0d1a2e3f74',
};
const TABLE = 'Fleet change snapshots';
const TITLE = 'CRM Leads to Mailer';
const NEW_SUBJECT = 'Welcome to the new plan';
const CUSTOMERS = Array.from({ length: 20 }, (_x, i) => `fleet-${String(i + 1).padStart(2, '0')}`);
const MISSING = 'fleet-08';
const FRESH = 'fleet-03';
/** A report's snapshots, as JSON: this run, the change's first run, the rows kept, who has none. */
const snapshotsJson = ([executionId, firstExecutionId, kept, noSnapshot]) =>
	JSON.stringify({ executionId, firstExecutionId, kept, noSnapshot });
/** Customers whose installation differs from a fresh one before the change (the two restored). */
const OWN = {
	'fleet-02': { paused: true, mail: { subject: 'Hi from fleet-02', cf__4c2d9e8f0a1b4c3d: 30 } },
	'fleet-20': { paused: false, mail: { subject: 'Hello from fleet-20' } },
};
const RESTORED = Object.keys(OWN);
const READING_POSTS = /\/wl\/[^/]+\/(get-user-session-token|get-user-profile|get-own-credential)$/;
const isWrite = (r) => r.method !== 'GET' && !(r.method === 'POST' && READING_POSTS.test(r.path));

const outputs = (runData, name) =>
	(runData[name]?.[0]?.data?.main ?? []).map((items) => items ?? []);

/** The example with a webhook in place of its manual trigger (same node name, same connections). */
export async function withWebhook(repoRoot, target, change) {
	const workflow = JSON.parse(await readFile(path.join(repoRoot, target.file), 'utf8'));
	const nodes = workflow.nodes.map((node) =>
		node.name === target.trigger
			? {
					...node,
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					parameters: {
						httpMethod: 'POST',
						path: target.webhookPath,
						responseMode: 'onReceived',
						options: {},
					},
					webhookId: target.webhookId,
				}
			: node,
	);
	if (!nodes.some((node) => node.webhookId === target.webhookId))
		throw new Error(`${target.file}: no node "${target.trigger}"`);
	return change({ ...workflow, id: target.id, nodes });
}

export const setJson = (workflow, nodeName, value) => {
	const node = workflow.nodes.find((n) => n.name === nodeName);
	node.parameters.jsonOutput = JSON.stringify(value);
	return workflow;
};

const finished = (e) => e.status !== 'running' && e.status !== 'new' && e.stoppedAt;

/** One run through the webhook, once the execution finished: `{ id, status, runData, error }`. */
async function runToEnd(n8n, target, label) {
	const before = new Set((await n8n.executions(target.id)).map((e) => String(e.id)));
	const answer = await callWebhook(n8n, target.webhookPath, {});
	if (answer.status !== 200) throw new Error(`${answer.status} ${answer.text.slice(0, 300)}`);
	const summary = await waitFor(
		`${label} to finish`,
		async () =>
			(await n8n.executions(target.id)).find((e) => !before.has(String(e.id)) && finished(e)),
		{ timeoutMs: 240_000, intervalMs: 1000 },
	);
	const execution = await n8n.execution(summary.id);
	const { runData, error } = execution.data.resultData;
	return { id: String(summary.id), status: execution.status, runData, error };
}

/** One run that must succeed: `{ id, runData }`. */
export async function runOnce(checks, n8n, target, label) {
	return await checks.step(`the webhook runs ${label}`, async () => {
		const run = await runToEnd(n8n, target, label);
		if (run.status !== 'success')
			throw new Error(`execution ${run.id}: ${run.status} ${JSON.stringify(run.error)}`);
		return { id: run.id, runData: run.runData };
	});
}

/** The Data Tables named TABLE, and every row of the first one (n8n's REST API, as the owner). */
async function snapshotTable(n8n) {
	const filter = encodeURIComponent(JSON.stringify({ name: TABLE }));
	const listed = await n8n.rest('GET', `/data-tables-global?filter=${filter}&take=50`);
	const tables = (listed.data ?? listed).filter((table) => table.name === TABLE);
	if (tables.length === 0) return { tables, rows: [] };
	const { id, projectId } = tables[0];
	const rows = [];
	for (let skip = 0; ; skip += 250) {
		const page = await n8n.rest(
			'GET',
			`/projects/${projectId}/data-tables/${id}/rows?take=250&skip=${skip}`,
		);
		rows.push(...page.data);
		if (page.data.length < 250) break;
	}
	return { tables, rows };
}

/** The same fields in one order, to compare as JSON. */
const inOrder = (fields) =>
	Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)));

/** Each customer's installation titled TITLE in the emulator: status and every field value. */
function installationsByCustomer(state, userOf) {
	const byCustomer = {};
	for (const id of CUSTOMERS) {
		const mine = state.installations.filter((i) => i.userId === userOf(id) && i.title === TITLE);
		if (mine.length > 1) throw new Error(`${id} has ${mine.length} installations "${TITLE}"`);
		if (mine.length === 0) continue;
		const [installation] = mine;
		const fields = {};
		for (const record of state.bundleData.filter((r) =>
			installation.bundleIds.includes(r.bundleId),
		))
			for (const field of record.fields) fields[`${record.title} → ${field.name}`] = field.value;
		byCustomer[id] = {
			id: installation.id,
			status: installation.status === 1 ? 'active' : 'paused',
			fields: inOrder(fields),
		};
	}
	return byCustomer;
}

/** A kept snapshot read as the emulator's view: status and "step → code" values. */
function snapshotView(row) {
	const snapshot = JSON.parse(row.snapshot);
	const fields = {};
	for (const field of snapshot.fieldValues) fields[`${field.step} → ${field.code}`] = field.value;
	return { id: row.installationId, status: snapshot.status, fields: inOrder(fields) };
}

const sorted = (list) => [...list].sort();

/** A customer before the change: the installation, paused or started, with its own values. */
async function prepare(emulator, partner, id) {
	if (id === MISSING) return;
	const asUser = await customerSession(emulator, partner, id);
	if (id === FRESH) return;
	const own = OWN[id];
	const installationId = await installFor(asUser, TITLE, false);
	if (own) {
		const state = await emulator.state();
		const { bundleIds } = state.installations.find((i) => i.id === installationId);
		const mail = state.bundleData.find(
			(r) => bundleIds.includes(r.bundleId) && r.title === 'Send welcome email',
		);
		await asUser('PUT', `/bundle/data/${mail.id}`, { data: own.mail });
	}
	if (!own?.paused) await asUser('PLAY', `/solution/installation/${installationId}`);
}

/** Whether this n8n's Data Table node can make a table (its `table` resource, 1.1; not in 2.0.3). */
const makesTables = (n8n) =>
	existsSync(
		path.join(n8n.install.appDir, 'node_modules/n8n-nodes-base/dist/nodes/DataTable/actions/table'),
	);

/**
 * What the example's sticky note says to change on an n8n whose Data Table node has rows only
 * (version 1, which also finds a table by its ID only): make the table by hand (here through the
 * REST API, as the Data Tables page does), delete the node "Snapshot table", and pick the table
 * in the other Data Table nodes (their version 1).
 */
async function tableMadeByHand(n8n, workflow) {
	const tableNode = workflow.nodes.find((node) => node.name === 'Snapshot table');
	const filter = encodeURIComponent(JSON.stringify({ name: TABLE }));
	const listed = await n8n.rest('GET', `/data-tables-global?filter=${filter}&take=50`);
	const existing = (listed.data ?? listed).find((table) => table.name === TABLE);
	if (existing) return existing.id;
	const { id: projectId } = await n8n.rest('GET', '/projects/personal');
	const made = await n8n.rest('POST', `/projects/${projectId}/data-tables`, {
		name: TABLE,
		columns: tableNode.parameters.columns.column,
	});
	return made.id;
}

function pickedTable(workflow, tableId) {
	const nodes = workflow.nodes
		.filter((node) => node.name !== 'Snapshot table')
		.map((node) =>
			node.type.endsWith('.dataTable')
				? {
						...node,
						typeVersion: 1,
						parameters: {
							...node.parameters,
							dataTableId: { __rl: true, mode: 'id', value: String(tableId) },
						},
					}
				: node,
		);
	const connections = { ...workflow.connections };
	if (connections['Snapshot table']) {
		connections[FLEET.trigger] = { main: [connections['Snapshot table'].main[0]] };
		delete connections['Snapshot table'];
	}
	return { ...workflow, nodes, connections };
}

export async function checkFleetChange(checks, n8n, emulator, repoRoot) {
	await emulator.reset();
	const partner = await emulator.control('GET', '/partner');
	const userOf = (id) => `${partner.name}:${id}`;
	let fleet = await withWebhook(repoRoot, FLEET, (w) =>
		setJson(w, 'Customers to change', {
			customers: CUSTOMERS.map((customerId) => ({ customerId })),
		}),
	);
	let tableId;
	if (!makesTables(n8n)) {
		tableId = await checks.step(
			`this n8n's Data Table node has rows only: the table made by hand, "Snapshot table" deleted`,
			() => tableMadeByHand(n8n, fleet),
		);
		fleet = pickedTable(fleet, tableId);
	}
	await checks.step('import:workflow (fleet change, 20 customers, started by a webhook)', () =>
		n8n.importWorkflow(fleet),
	);
	await checks.step('the fleet change workflow is active', () => activateWorkflow(n8n, FLEET.id));
	for (const id of CUSTOMERS) await prepare(emulator, partner, id);
	const before = installationsByCustomer(await emulator.state(), userOf);
	checks.equal(
		'before: every end user but fleet-03 has the installation; fleet-02 paused, its own subject',
		[
			Object.keys(before).length,
			before['fleet-02']?.status,
			before['fleet-02']?.fields['Send welcome email → subject'],
			before['fleet-02']?.fields['Send welcome email → cf__4c2d9e8f0a1b4c3d'],
		],
		[18, 'paused', 'Hi from fleet-02', 30],
	);
	await emulator.control('DELETE', '/requests');

	// ---- 1. snapshots kept, then stopped halfway
	const first = await runOnce(checks, n8n, FLEET, `the fleet change (${MISSING} missing)`);
	const runData = first.runData;
	const [done = [], problems = []] = outputs(runData, 'Ensure new subject');
	const customerOf = (item) => CUSTOMERS[item.pairedItem?.item];
	const isNotAttempted = (item) => String(item.json.error ?? '').startsWith('Not attempted:');
	const notAttempted = problems.filter(isNotAttempted);
	const failed = problems.filter((item) => !isNotAttempted(item));
	checks.equal('run 1: the failure is fleet-08', failed.map(customerOf), [MISSING]);
	checks.ok(
		'run 1: the 5 canaries and the items in flight done, the rest not attempted (halfway)',
		done.length >= 5 && notAttempted.length >= 5 && done.length + 1 + notAttempted.length === 20,
		`done ${done.length}, not attempted ${notAttempted.length}`,
	);
	checks.ok(
		'run 1: every not-attempted item is on the error output, paired, with the threshold and counts',
		notAttempted.every(
			(item) =>
				// n8n merges the input item's fields (customerId) into what leaves the error output.
				Object.keys(item.json).every((key) => ['error', 'message', 'customerId'].includes(key)) &&
				item.json.customerId === customerOf(item) &&
				/^Not attempted: Stop After Failures \(2%\) was exceeded\. \d+ done, 1 failed, \d+ not attempted$/.test(
					item.json.error,
				),
		),
		JSON.stringify(notAttempted[0]?.json),
	);
	checks.equal(
		`run 1: ${FRESH} (no installation before) installed by Ensure`,
		done.filter((item) => customerOf(item) === FRESH).map((item) => item.json.created),
		[true],
	);

	// When the snapshot branch ended and Ensure started, by n8n's own clock (the emulator logs on
	// the same machine's clock).
	const ranAt = (name) => runData[name]?.[0] ?? {};
	const snapshotsEnded = ranAt('Keep snapshot').startTime + ranAt('Keep snapshot').executionTime;
	const ensureStarted = ranAt('Ensure new subject').startTime;
	checks.ok(
		'run 1: the snapshot branch ran to its end before Ensure started (n8n runs the upper branch first)',
		snapshotsEnded <= ensureStarted,
		`Keep snapshot ended ${snapshotsEnded}, Ensure started ${ensureStarted}`,
	);
	const requests1 = await emulator.requests();
	const at = (r) => Date.parse(r.at);
	checks.equal(
		'emulator: no write before Ensure started',
		requests1
			.filter((r) => isWrite(r) && at(r) < ensureStarted)
			.map((r) => `${r.method} ${r.path}`),
		[],
	);
	const untouched = notAttempted.map(customerOf);
	const forUntouched = requests1.filter((r) =>
		untouched.some((id) => r.user === userOf(id) || r.body?.id === id),
	);
	checks.equal(
		'emulator: the customers never started got no request once Ensure started, and no write at all',
		forUntouched.filter((r) => at(r) >= ensureStarted || isWrite(r)),
		[],
	);
	checks.ok(
		'emulator: …only the snapshot reads before (their list, installation and field values)',
		untouched.every((id) =>
			forUntouched.some((r) => r.user === userOf(id) && r.path.startsWith('/bundle/data')),
		),
		JSON.stringify(forUntouched.slice(0, 5)),
	);

	// (a) the snapshots kept before the change
	const table1 = await snapshotTable(n8n);
	const rows1 = table1.rows.filter((row) => row.executionId === first.id);
	checks.equal(
		`run 1: the workflow made the Data Table "${TABLE}" and kept one row per installation of this run`,
		[table1.tables.length, rows1.length, table1.rows.length],
		[1, 18, 18],
	);
	const keptFor = sorted(rows1.map((row) => row.customerId));
	checks.equal(
		'run 1: a snapshot of every customer with the installation, the not-attempted ones included',
		keptFor,
		sorted(Object.keys(before)),
	);
	checks.ok(
		`run 1: …so of every customer attempted but ${FRESH} (nothing to write down) and ${MISSING} (not an end user)`,
		[...done.map(customerOf), ...failed.map(customerOf)]
			.filter((id) => id !== FRESH && id !== MISSING)
			.every((id) => keptFor.includes(id)) && untouched.every((id) => keptFor.includes(id)),
		JSON.stringify({ keptFor, untouched }),
	);
	const mismatched = rows1.filter(
		(row) => JSON.stringify(snapshotView(row)) !== JSON.stringify(before[row.customerId]),
	);
	checks.equal(
		'run 1: each snapshot holds the status and every field value of before (the subject too)',
		mismatched.map((row) => ({ customer: row.customerId, kept: snapshotView(row) })),
		[],
	);
	checks.equal(
		'run 1: e.g. fleet-02 kept paused with its own subject, fleet-20 with its own',
		RESTORED.map((id) => {
			const row = rows1.find((r) => r.customerId === id);
			return row && [row.status, snapshotView(row).fields['Send welcome email → subject']];
		}),
		[
			['paused', 'Hi from fleet-02'],
			['active', 'Hello from fleet-20'],
		],
	);
	checks.equal(
		`run 1: "No snapshot" holds ${MISSING} alone (its installations cannot be read)`,
		outputs(runData, 'No snapshot')[0]?.map((item) => item.json.customerId),
		[MISSING],
	);
	const [report1] = outputs(runData, 'Report')[0] ?? [];
	checks.ok(
		'run 1: the report counts changed, failed, not attempted and the snapshots kept',
		report1?.json.changed.length === done.length &&
			report1.json.failed.length === 1 &&
			report1.json.notAttempted.length === notAttempted.length &&
			/Stop After Failures/.test(report1.json.stoppedBecause ?? '') &&
			JSON.stringify(report1.json.snapshots) ===
				snapshotsJson([first.id, first.id, 18, [FRESH, MISSING]]),
		JSON.stringify(report1?.json),
	);

	// ---- 2. fixed, run again: resume
	await customerSession(emulator, partner, MISSING);
	await emulator.control('DELETE', '/requests');
	const second = await runOnce(checks, n8n, FLEET, 'the fleet change again (resume)');
	const [done2 = [], problems2 = []] = outputs(second.runData, 'Ensure new subject');
	checks.equal(
		'run 2: every customer done, none failed or not attempted',
		[done2.length, problems2.length],
		[20, 0],
	);
	const doneBefore = new Set(done.map(customerOf));
	const requests2 = await emulator.requests();
	checks.equal(
		'emulator: run 2 wrote nothing for the customers done in run 1',
		requests2
			.filter((r) => isWrite(r) && [...doneBefore].some((id) => r.user === userOf(id)))
			.map((r) => `${r.method} ${r.path} ${r.user}`),
		[],
	);
	checks.equal(
		'run 2: those customers are reported unchanged, the others changed',
		done2.map((item) => item.json.unchanged),
		CUSTOMERS.map((id) => doneBefore.has(id)),
	);
	const state2 = await emulator.state();
	const after = installationsByCustomer(state2, userOf);
	checks.equal(
		'emulator: 20 installations, all active, all with the new subject',
		[
			Object.keys(after).length,
			Object.values(after).every(
				(i) => i.status === 'active' && i.fields['Send welcome email → subject'] === NEW_SUBJECT,
			),
			state2.installations.filter((i) => i.title === TITLE).length,
		],
		[20, true, 20],
	);
	const [report2] = outputs(second.runData, 'Report')[0] ?? [];
	checks.ok(
		`run 2: the report has no failure, nothing not attempted, 19 snapshots kept, ${MISSING} named as having none (it had no installation yet), run 1 as the change's first run`,
		report2?.json.failed.length === 0 &&
			report2.json.notAttempted.length === 0 &&
			JSON.stringify(report2.json.snapshots) ===
				snapshotsJson([second.id, first.id, 19, [MISSING]]),
		JSON.stringify(report2?.json),
	);
	const table2 = await snapshotTable(n8n);
	const rows2 = table2.rows.filter((row) => row.executionId === second.id);
	checks.equal(
		"run 2: the same table reused, run 2's own 19 rows added, run 1's rows as they were",
		[
			table2.tables.length,
			rows2.length,
			JSON.stringify(table2.rows.filter((row) => row.executionId === first.id)) ===
				JSON.stringify(rows1),
		],
		[1, 19, true],
	);
	checks.ok(
		"run 2: its rows of customers done in run 1 hold the new subject (so restore takes run 1's)",
		rows2
			.filter((row) => doneBefore.has(row.customerId))
			.every((row) => snapshotView(row).fields['Send welcome email → subject'] === NEW_SUBJECT),
	);

	// ---- 3. (a) a restore with no snapshot to read stops, naming the customers and where the ID is
	for (const executionId of ['', '999999']) {
		let wrong = await withWebhook(repoRoot, RESTORE, (w) =>
			setJson(w, 'Customers to restore', { executionId, customerIds: RESTORED }),
		);
		if (tableId !== undefined) wrong = pickedTable(wrong, tableId);
		await checks.step(`import:workflow (fleet restore, executionId '${executionId}')`, () =>
			n8n.importWorkflow(wrong),
		);
		await checks.step('the fleet restore workflow is active', () =>
			activateWorkflow(n8n, RESTORE.id),
		);
		await emulator.control('DELETE', '/requests');
		const stopped = await runToEnd(n8n, RESTORE, `the restore with executionId '${executionId}'`);
		checks.ok(
			`restore with executionId '${executionId}': fails in Match the customers, naming both customers and snapshots.firstExecutionId, before any write`,
			stopped.status === 'error' &&
				String(stopped.error?.message).startsWith(
					`No snapshot of ${RESTORED.join(', ')} in execution '${executionId}'`,
				) &&
				String(stopped.error?.message).includes('snapshots.firstExecutionId') &&
				(await emulator.requests()).filter(isWrite).length === 0,
			JSON.stringify([stopped.status, stopped.error?.message]),
		);
		await deactivateWorkflow(n8n, RESTORE.id);
	}

	// ---- 3. (b) restore two customers from run 1's snapshots
	let restore = await withWebhook(repoRoot, RESTORE, (w) =>
		setJson(w, 'Customers to restore', {
			executionId: first.id,
			customerIds: RESTORED,
		}),
	);
	if (tableId !== undefined) restore = pickedTable(restore, tableId);
	await checks.step('import:workflow (fleet restore, started by a webhook)', () =>
		n8n.importWorkflow(restore),
	);
	await checks.step('the fleet restore workflow is active', () =>
		activateWorkflow(n8n, RESTORE.id),
	);
	checks.ok(
		`${RESTORED.join(' and ')} changed by the fleet change (run 1 and run 2)`,
		doneBefore.has(RESTORED[0]) && !doneBefore.has(RESTORED[1]),
		JSON.stringify([...doneBefore]),
	);
	await emulator.control('DELETE', '/requests');
	const restored = await runOnce(checks, n8n, RESTORE, `the restore of ${RESTORED.join(', ')}`);
	const [restoredItems = [], restoreProblems = []] = outputs(restored.runData, 'Restore');
	checks.equal(
		'restore: both restored (changed), nothing on the error output',
		[restoredItems.map((item) => item.json.unchanged), restoreProblems.length],
		[[false, false], 0],
	);
	const afterRestore = installationsByCustomer(await emulator.state(), userOf);
	checks.equal(
		'emulator: after the restore, their installations have exactly the field values and status of before',
		RESTORED.map((id) => afterRestore[id]),
		RESTORED.map((id) => before[id]),
	);
	const requests3 = await emulator.requests();
	checks.equal(
		'emulator: the restore wrote for those two customers only',
		sorted(new Set(requests3.filter(isWrite).map((r) => r.user))),
		sorted(RESTORED.map(userOf)),
	);
	await emulator.control('DELETE', '/requests');
	const again = await runOnce(checks, n8n, RESTORE, 'the same restore again');
	checks.equal(
		'restore again: both unchanged, no write',
		[
			(outputs(again.runData, 'Restore')[0] ?? []).map((item) => item.json.unchanged),
			(await emulator.requests()).filter(isWrite).length,
		],
		[[true, true], 0],
	);
	await deactivateWorkflow(n8n, FLEET.id);
	await deactivateWorkflow(n8n, RESTORE.id);
}
