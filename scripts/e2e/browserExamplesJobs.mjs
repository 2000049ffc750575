// The fleet-watch and usage-topup examples in the editor (browserExamples.mjs, 3–4): a failed run
// of c1 gives one "Automation failing" message, c3's succeeded run none; c1 tops up, c2 moves to
// plan 23, c3 is not low, and the emulator gets exactly those two calls.

import {
	checkOpened,
	importExample,
	outputOf,
	pickCredentialEverywhere,
	runNow,
	setJson,
} from './lib/exampleEditor.mjs';
import {
	C1,
	C2,
	C3,
	FLEET_TITLE,
	installationsOf,
	isWrite,
	MAIL_STEP,
	TEMPLATE,
} from './browserExamplesCustomers.mjs';

// ---- 3. fleet watch ---------------------------------------------------------------------------

/** A failed run of c1's installation, a succeeded one of c3's. */
async function recordRuns(emulator, partner) {
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
}

export async function fleetWatch(page, ctx) {
	const { baseUrl, n8n, emulator, checks, partner, credentialName } = ctx;
	await recordRuns(emulator, partner);
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

const TOPUP_NODES = ['Usage', 'Set Plan', 'Add Transactions'];

/** The example imported, the credential picked, the customers typed: its workflow ID. */
async function importTopUp(page, { baseUrl, checks, credentialName }) {
	return await checks.step(
		'usage-topup: imported, credential picked in its 3 Albato nodes, customers typed',
		async () => {
			const workflowId = await importExample(page, baseUrl, 'usage-topup.workflow.json', 'Report');
			await pickCredentialEverywhere(page, TOPUP_NODES, credentialName);
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
}

export async function usageTopUp(page, ctx) {
	const { n8n, emulator, checks } = ctx;
	for (const [id, used] of [
		[C1, 950],
		[C2, 920],
		[C3, 500],
	])
		await emulator.control('POST', '/end-users/transactions', { id, used });
	const id = await importTopUp(page, ctx);
	await checkOpened(
		page,
		checks,
		'usage-topup',
		TOPUP_NODES,
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
