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
//
// The parts: fleetChangeSetup.mjs (the workflows, the customers, how they are read),
// fleetChangeRuns.mjs (steps 1 and 2), fleetRestore.mjs (step 3); lib/exampleWebhook.mjs runs an
// example through its webhook.

import { setJson, withWebhook } from './lib/exampleWebhook.mjs';
import { activateWorkflow, deactivateWorkflow } from './lib/webhook.mjs';
import { checkFirstRun, checkResume } from './fleetChangeRuns.mjs';
import { checkRestore, checkRestoreRefused } from './fleetRestore.mjs';
import {
	CUSTOMERS,
	FLEET,
	installationsByCustomer,
	makesTables,
	pickedTable,
	prepare,
	RESTORE,
	tableMadeByHand,
} from './fleetChangeSetup.mjs';

export async function checkFleetChange(checks, n8n, emulator, repoRoot) {
	const change = await setUpFleetChange(checks, n8n, emulator, repoRoot);
	// ---- 1. snapshots kept, then stopped halfway
	const run1 = await checkFirstRun(change);
	// ---- 2. fixed, run again: resume
	const doneBefore = await checkResume(change, run1);
	// ---- 3. the restore: refused without a snapshot to read, then from run 1's snapshots
	await checkRestoreRefused(change);
	await checkRestore(change, { first: run1.first, doneBefore });
	await deactivateWorkflow(n8n, FLEET.id);
	await deactivateWorkflow(n8n, RESTORE.id);
}

/**
 * The fleet change imported and active, every customer as it stands before the change. Returns
 * what the steps share: `{ checks, n8n, emulator, repoRoot, partner, userOf, tableId, before }`.
 */
async function setUpFleetChange(checks, n8n, emulator, repoRoot) {
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
	return { checks, n8n, emulator, repoRoot, partner, userOf, tableId, before };
}
