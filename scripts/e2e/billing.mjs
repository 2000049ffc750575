// In real n8n (called while `n8n start` runs, after partner.mjs imported the Albato
// Partner API credential):
//
//  1. examples/usage-topup.workflow.json (`n8n execute`, "Run now"): of acme (50 of 1000 left),
//     globex (80 of 1000) and initech (500 of 1000), acme gets 1000 extra transactions and globex
//     plan 23, initech nothing; the report names both; list-plans read, no master token stored.
//  2. scripts/e2e/fixtures/billing-block.workflow.json (`n8n execute`): Get Plans lists the plans
//     with monthlyTrx; Block without its confirmation fails and sends nothing; Block confirmed pauses
//     the customer's started installation; Start afterwards goes to the error output saying the
//     user is blocked.

import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { customerSession, installFor } from './partner.mjs';
import { sleep, waitFor } from './lib/proc.mjs';
import { WORKFLOWS, readExample } from './lib/setup.mjs';
import { activateWorkflow, deactivateWorkflow } from './lib/webhook.mjs';

const LOW_WORKFLOW = {
	id: 'AlbatoLowTrx001',
	file: 'scripts/e2e/fixtures/low-transactions.workflow.json',
};
const POLL_TIMEOUT_MS = 150_000; // "every minute": at most ~60 s, plus slack

const BLOCK_WORKFLOW = {
	id: 'AlbatoBillBlock1',
	file: 'scripts/e2e/fixtures/billing-block.workflow.json',
};

const allOutputs = (runData, name) =>
	(runData[name] ?? []).flatMap((run) => (run.data?.main?.[0] ?? []).map((item) => item.json));
const outputs = (runData, name) =>
	(runData[name]?.[0]?.data?.main ?? []).map((items) => (items ?? []).map((item) => item.json));

async function execute(checks, n8n, id, title) {
	return await checks.step(`n8n execute runs "${title}"`, async () => {
		const executed = await n8n.execute(id);
		if (!executed.run)
			throw new Error(`no run JSON (exit ${executed.code})\n${executed.output.slice(-3000)}`);
		return executed;
	});
}

/** The Usage node's items and the one report item. */
function checkUsageOutputs(checks, runData) {
	const usage = allOutputs(runData, 'Usage');
	checks.ok(
		'Usage: trxLimit, monthlyTrx and trxUsedShare per customer',
		usage.length === 3 &&
			usage.find((u) => u.endUserId === 'acme')?.trxUsedShare === 0.95 &&
			usage.every((u) => u.monthlyTrx === 1000),
		JSON.stringify(usage),
	);
	const report = allOutputs(runData, 'Report');
	checks.equal(
		'the report: one item, every customer once, what was done',
		[
			report.length,
			(report[0]?.customers ?? []).map((r) => `${r.customer}: ${r.action} (${r.leftBefore})`),
		],
		[
			1,
			[
				'acme: added 1000 transactions (50 of 1000)',
				'globex: plan set to 23 (80 of 1000)',
				'initech: none: not low (500 of 1000)',
			],
		],
	);
}

async function checkUsageTopUp(checks, n8n, emulator, repoRoot, partner) {
	for (const id of ['acme', 'globex', 'initech']) await customerSession(emulator, partner, id);
	for (const [id, used] of [
		['acme', 950],
		['globex', 920],
		['initech', 500],
	])
		await emulator.control('POST', '/end-users/transactions', { id, used });
	const workflow = await readExample(repoRoot, 'usageTopUp');
	await checks.step('import:workflow (usage top-up)', () => n8n.importWorkflow(workflow));
	const logged = (await emulator.requests()).length;
	const result = await execute(checks, n8n, WORKFLOWS.usageTopUp.id, workflow.name);
	const runData = result.run.data.resultData.runData;
	checks.ok('execution status "success"', result.run.status === 'success', () =>
		JSON.stringify(result.run.data.resultData.error ?? {}).slice(0, 800),
	);
	const calls = (await emulator.requests()).slice(logged);
	const bodies = (endpoint) =>
		calls.filter((r) => r.path === `/wl/${partner.name}/${endpoint}`).map((r) => r.body);
	checks.equal(
		'emulator: one profile read per customer',
		bodies('get-user-profile').map((b) => b.id),
		['acme', 'globex', 'initech'],
	);
	checks.ok(
		'emulator: list-plans read (GET), at most once per node',
		calls.filter((r) => /\/list-plans$/.test(r.path)).length <= 2 &&
			calls.some((r) => r.method === 'GET' && /\/list-plans$/.test(r.path)),
		calls.map((r) => `${r.method} ${r.path}`).join('\n'),
	);
	checks.equal('emulator: acme topped up with 1000', bodies('add-user-plan-transactions'), [
		{ id: 'acme', count: 1000 },
	]);
	checks.equal('emulator: globex moved to plan 23', bodies('set-user-plan'), [
		{ id: 'globex', planId: 23 },
	]);
	checkUsageOutputs(checks, runData);
	const summaries = await n8n.executions(WORKFLOWS.usageTopUp.id);
	const stored = JSON.stringify(
		await Promise.all(summaries.map(async (summary) => await n8n.execution(summary.id))),
	);
	checks.ok(
		`no master token in the output or the ${summaries.length} stored execution(s)`,
		!JSON.stringify(result.run).includes(partner.masterToken) &&
			!stored.includes(partner.masterToken),
	);
}

async function checkPlansAndBlock(checks, n8n, emulator, repoRoot, partner) {
	const asUser = await customerSession(emulator, partner, 'e2e-unpaid');
	const installationId = await installFor(asUser, 'e2e-unpaid – lead sync', true);
	const workflow = JSON.parse(await readFile(path.join(repoRoot, BLOCK_WORKFLOW.file), 'utf8'));
	const customer = workflow.nodes.find((node) => node.name === 'Customer');
	customer.parameters.jsonOutput = JSON.stringify({ customerId: 'e2e-unpaid', installationId });
	await checks.step('import:workflow (plans and block)', () =>
		n8n.importWorkflow({ ...workflow, id: BLOCK_WORKFLOW.id }),
	);
	const logged = (await emulator.requests()).length;
	const result = await execute(checks, n8n, BLOCK_WORKFLOW.id, workflow.name);
	const runData = result.run.data.resultData.runData;
	checks.equal('Get Plans: each plan with its monthly transactions', outputs(runData, 'Plans')[0], [
		{ planId: 1, monthlyTrx: 1000 },
		{ planId: 23, monthlyTrx: 10000 },
		{ planId: 24, monthlyTrx: 100000 },
	]);
	const unconfirmed = outputs(runData, 'Block without confirmation')[0]?.[0] ?? {};
	checks.ok(
		'Block without the confirmation: the item fails saying so',
		/Confirm: Block the User is off/.test(JSON.stringify(unconfirmed)),
		JSON.stringify(unconfirmed),
	);
	checks.equal('Block: {endUserId, blocked: true}', outputs(runData, 'Block')[0], [
		{ endUserId: 'e2e-unpaid', blocked: true },
	]);
	const calls = (await emulator.requests()).slice(logged);
	checks.equal(
		'emulator: exactly one block-user-plan, for e2e-unpaid',
		calls.filter((r) => /\/block-user-plan$/.test(r.path)).map((r) => r.body),
		[{ id: 'e2e-unpaid' }],
	);
	const state = await emulator.state();
	checks.equal(
		"emulator: the customer's started installation is paused",
		state.installations.find((i) => i.id === installationId)?.status,
		0,
	);
	const [started, refused] = outputs(runData, 'Start after the block');
	checks.ok(
		'Start after the block: on the error output, saying the user is blocked',
		(started ?? []).length === 0 &&
			(refused ?? []).length === 1 &&
			/blocked/i.test(JSON.stringify(refused[0])),
		JSON.stringify({ started, refused }),
	);
}

/** The Transactions Running Low items of every execution of the alert so far, with their status. */
async function lowItems(n8n) {
	const seen = [];
	for (const summary of await n8n.executions(LOW_WORKFLOW.id)) {
		const execution = await n8n.execution(summary.id);
		const runData = execution.data.resultData.runData;
		for (const item of allOutputs(runData, 'Transactions running low'))
			seen.push({ item, status: summary.status });
	}
	return seen;
}

async function checkNoTokensStored(checks, n8n, partner) {
	const stored = JSON.stringify(
		await Promise.all(
			(await n8n.executions(LOW_WORKFLOW.id)).map(async (s) => await n8n.execution(s.id)),
		),
	);
	checks.ok(
		'no master token or session token in the stored executions',
		!stored.includes(partner.masterToken) && !/sessionToken|permanentToken/.test(stored),
	);
}

/** How many profile reads of `customer` reached the service (one per poll of the alert). */
async function profileReads(emulator, customer) {
	return (await emulator.requests()).filter(
		(r) => /\/get-user-profile$/.test(r.path) && r.body?.id === customer,
	).length;
}

async function checkRunningLow(checks, n8n, emulator, repoRoot, partner) {
	const customer = 'e2e-low';
	await customerSession(emulator, partner, customer);
	const used = (count) =>
		emulator.control('POST', '/end-users/transactions', { id: customer, used: count });
	const polls = () => profileReads(emulator, customer);
	const items = () => lowItems(n8n);
	await used(500);
	const workflow = JSON.parse(await readFile(path.join(repoRoot, LOW_WORKFLOW.file), 'utf8'));
	await checks.step('import:workflow (low transactions alert)', () =>
		n8n.importWorkflow({ ...workflow, id: LOW_WORKFLOW.id }),
	);
	try {
		await checks.step(
			'activate it (REST); its first poll (500 of 1000 left) is the baseline',
			async () => {
				await activateWorkflow(n8n, LOW_WORKFLOW.id);
				await waitFor('the baseline poll', async () => (await polls()) >= 1, { timeoutMs: 60_000 });
			},
		);
		await used(960);
		const seen = await checks.step(
			'40 of 1000 left → Transactions Running Low in the next poll',
			() =>
				waitFor('the event', async () => ((await items()).length > 0 ? await items() : undefined), {
					timeoutMs: POLL_TIMEOUT_MS,
					intervalMs: 3000,
				}),
		);
		const after = await polls();
		await waitFor('one more poll', async () => (await polls()) >= after + 1, {
			timeoutMs: POLL_TIMEOUT_MS,
			intervalMs: 2000,
		});
		await sleep(3000); // an execution of that poll would be stored by now
		const all = await items();
		console.log(`    polls as ${customer}: ${await polls()}, events: ${all.length}`);
		checks.equal(
			'exactly one event over every poll (none at the baseline, none while still low)',
			all.length,
			1,
		);
		const { item = {}, status } = seen?.[0] ?? {};
		checks.ok(
			'the item: end user, transactions left, the plan, the share used, the limit',
			item.event === 'transactionsRunningLow' &&
				item.endUserId === customer &&
				item.trxLimit === 40 &&
				item.monthlyTrx === 1000 &&
				item.trxUsedShare === 0.96 &&
				item.runningLowBelow === '10%' &&
				status === 'success',
			JSON.stringify({ item, status }),
		);
		await checkNoTokensStored(checks, n8n, partner);
	} finally {
		await deactivateWorkflow(n8n, LOW_WORKFLOW.id);
	}
}

export async function checkBilling(checks, n8n, emulator, repoRoot) {
	await emulator.reset();
	const partner = await emulator.control('GET', '/partner');
	await checks.group('Usage top-up example (n8n execute)', () =>
		checkUsageTopUp(checks, n8n, emulator, repoRoot, partner),
	);
	await checks.group('Plans and Block (n8n execute)', () =>
		checkPlansAndBlock(checks, n8n, emulator, repoRoot, partner),
	);
	await checks.group('Trigger: Transactions Running Low (active workflow)', () =>
		checkRunningLow(checks, n8n, emulator, repoRoot, partner),
	);
}
