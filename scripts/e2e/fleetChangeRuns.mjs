// The fleet change's two runs (fleet.mjs, steps 1 and 2): run 1 keeps the snapshots, then stops
// halfway at fleet-08; run 2, once fleet-08 is an end user, resumes. `change`: the checks, n8n, the
// emulator, the partner, `userOf` (a customer's user in the emulator) and `before` (each
// customer's installation before the change).

import { outputs, runOnce } from './lib/exampleWebhook.mjs';
import { customerSession } from './partner.mjs';
import {
	CUSTOMERS,
	FLEET,
	FRESH,
	installationsByCustomer,
	isWrite,
	MISSING,
	NEW_SUBJECT,
	RESTORED,
	snapshotsJson,
	snapshotTable,
	snapshotView,
	sorted,
	TABLE,
	TITLE,
} from './fleetChangeSetup.mjs';

const customerOf = (item) => CUSTOMERS[item.pairedItem?.item];
const isNotAttempted = (item) => String(item.json.error ?? '').startsWith('Not attempted:');

/** Run 1: snapshots kept, then stopped halfway. What it did, for the checks after it. */
export async function checkFirstRun(change) {
	const { checks, n8n } = change;
	const first = await runOnce(checks, n8n, FLEET, `the fleet change (${MISSING} missing)`);
	const runData = first.runData;
	const [done = [], problems = []] = outputs(runData, 'Ensure new subject');
	const notAttempted = problems.filter(isNotAttempted);
	const failed = problems.filter((item) => !isNotAttempted(item));
	const run1 = {
		first,
		runData,
		done,
		notAttempted,
		failed,
		untouched: notAttempted.map(customerOf),
	};
	checkStoppedHalfway(checks, run1);
	await checkNothingWrittenBefore(change, run1);
	run1.rows1 = await checkSnapshotsKept(change, run1);
	checkReportOfFirstRun(checks, run1);
	return run1;
}

function checkStoppedHalfway(checks, { done, notAttempted, failed }) {
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
}

async function checkNothingWrittenBefore({ checks, emulator, userOf }, { runData, untouched }) {
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
}

/** (a) the snapshots kept before the change: run 1's rows of the table. */
async function checkSnapshotsKept({ checks, n8n, before }, { first, done, failed, untouched }) {
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
	return rows1;
}

function checkReportOfFirstRun(checks, { first, runData, done, notAttempted }) {
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
}

/** Run 2, fleet-08 fixed: the resume. Returns the customers done in run 1. */
export async function checkResume(change, run1) {
	const { checks, n8n, emulator, partner, userOf } = change;
	await customerSession(emulator, partner, MISSING);
	await emulator.control('DELETE', '/requests');
	const second = await runOnce(checks, n8n, FLEET, 'the fleet change again (resume)');
	const [done2 = [], problems2 = []] = outputs(second.runData, 'Ensure new subject');
	checks.equal(
		'run 2: every customer done, none failed or not attempted',
		[done2.length, problems2.length],
		[20, 0],
	);
	const doneBefore = new Set(run1.done.map(customerOf));
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
	await checkResumed(change, run1, { second, doneBefore });
	return doneBefore;
}

async function checkResumed({ checks, n8n, emulator, userOf }, { first, rows1 }, run2) {
	const { second, doneBefore } = run2;
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
}
