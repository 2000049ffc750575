// The fleet-change and fleet-restore examples in the editor (browserExamples.mjs, 1–2): the change
// for c1, c2 and c3; the restore refused with an empty and with a wrong execution ID, its message
// shown in the node's output; then the restore of c1 and c2 from the change's snapshots.

import {
	checkOpened,
	importExample,
	outputOf,
	pickCredentialEverywhere,
	runNow,
	setJson,
	shownOutput,
} from './lib/exampleEditor.mjs';
import {
	C1,
	C2,
	C3,
	DELAY,
	FLEET_TITLE,
	installationsOf,
	isWrite,
	MAIL_STEP,
	NEW_SUBJECT,
	OWN,
	prepareFleet,
} from './browserExamplesCustomers.mjs';

const CHANGE_NODES = ['Find the installation', 'Get snapshot', 'Ensure new subject'];

export async function fleetChangeAndRestore(page, ctx) {
	const changed = await fleetChange(page, ctx);
	await fleetRestore(page, ctx, changed);
}

/** The change: returns its execution and the installations of c1 and c2 before it. */
async function fleetChange(page, ctx) {
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
			await pickCredentialEverywhere(page, CHANGE_NODES, credentialName);
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
		CHANGE_NODES,
		/Preview first: open Ensure new subject → Request Options → Add Option → Preview/,
	);

	const change = await checks.step('fleet-change: "Run now" executes from the editor', () =>
		runNow(page, n8n, changeId),
	);
	await checkChanged(ctx, change);
	return { change, before };
}

/** The change's report and every customer's installation after it. */
async function checkChanged({ emulator, checks, partner }, change) {
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
		const mine = installationsOf(changed, `${partner.name}:${id}`, FLEET_TITLE);
		checks.ok(
			`emulator: ${id} has one "${FLEET_TITLE}", active, subject "${NEW_SUBJECT}"`,
			mine.length === 1 &&
				mine[0].status === 1 &&
				mine[0].fields[`${MAIL_STEP} → subject`] === NEW_SUBJECT,
			JSON.stringify(mine),
		);
	}
}

// ---- the restore

async function fleetRestore(page, ctx, changed) {
	const { baseUrl, checks, credentialName } = ctx;
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
	for (const [executionId, why] of wrong)
		await checkRefused(page, ctx, restoreId, { executionId, why });
	await checkRestored(page, ctx, restoreId, changed);
}

/** A restore with no snapshot to read: stopped in "Match the customers", said why, nothing written. */
async function checkRefused(page, { n8n, emulator, checks }, restoreId, { executionId, why }) {
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

/** The restore with the change's execution ID: c1 and c2 as before, c3 left changed. */
async function checkRestored(page, ctx, restoreId, { change, before }) {
	const { n8n, emulator, checks, partner } = ctx;
	const userOf = (id) => `${partner.name}:${id}`;
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
