// The fleet restore (fleet.mjs, step 3): with an empty and with an unknown execution ID it stops
// before any write, naming the customers and where the right ID is; then it restores fleet-02 and
// fleet-20 from run 1's snapshots, exactly as they were; again, it writes nothing.

import { outputs, runOnce, runToEnd, setJson, withWebhook } from './lib/exampleWebhook.mjs';
import { activateWorkflow, deactivateWorkflow } from './lib/webhook.mjs';
import {
	installationsByCustomer,
	isWrite,
	pickedTable,
	RESTORE,
	RESTORED,
	sorted,
} from './fleetChangeSetup.mjs';

/** The restore example for these customers and run, imported and active. */
async function importRestore(change, values, label) {
	const { checks, n8n, repoRoot, tableId } = change;
	let restore = await withWebhook(repoRoot, RESTORE, (w) =>
		setJson(w, 'Customers to restore', values),
	);
	if (tableId !== undefined) restore = pickedTable(restore, tableId);
	await checks.step(`import:workflow (fleet restore, ${label})`, () => n8n.importWorkflow(restore));
	await checks.step('the fleet restore workflow is active', () =>
		activateWorkflow(n8n, RESTORE.id),
	);
}

/** (a) a restore with no snapshot to read stops, naming the customers and where the ID is. */
export async function checkRestoreRefused(change) {
	const { checks, n8n, emulator } = change;
	for (const executionId of ['', '999999']) {
		await importRestore(
			change,
			{ executionId, customerIds: RESTORED },
			`executionId '${executionId}'`,
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
}

/** (b) restore two customers from run 1's snapshots (`first`), then the same restore again. */
export async function checkRestore(change, { first, doneBefore }) {
	const { checks, n8n, emulator, userOf, before } = change;
	await importRestore(
		change,
		{ executionId: first.id, customerIds: RESTORED },
		'started by a webhook',
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
}
