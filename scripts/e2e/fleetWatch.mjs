// In real n8n: examples/fleet-watch.workflow.json, active, on its schedule (imported at
// every 20 s instead of 5 min, lib/setup.mjs), over at least 4 sweeps of customers acme and globex.
// Needs the Albato Partner API credential (imported by the partner checks).
//
//  sweep 1: history only (a success each) → nothing
//  then acme fails            → one incidentOpened for acme
//  then globex fails, acme fails again → one incidentOpened for globex (acme's repeat: nothing)
//  then acme succeeds         → one incidentResolved for acme (2 failed runs)
//  one more sweep             → nothing
// Checked over every execution: those three items, each once, each composed into one message; the
// node's memory lives in n8n (static data saved by each execution, n8n's deduplication store).

import { customerSession, installFor } from './partner.mjs';
import { waitFor } from './lib/proc.mjs';
import { WORKFLOWS } from './lib/setup.mjs';
import { activateWorkflow, deactivateWorkflow } from './lib/webhook.mjs';

const SWEEP_TIMEOUT_MS = 90_000; // every 20 s, plus n8n's own pace
const STEP_ERROR = 'CRM password expired (e2e)';
const outputOf = (runData, name) =>
	(runData[name]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);

async function recordRun(emulator, installationId, outcome) {
	const state = await emulator.state();
	const [bundleId] = state.installations.find((i) => i.id === installationId).bundleIds;
	const failing = { steps: [[{}], [{ status: 'failed', error: STEP_ERROR }]] };
	return emulator.control('POST', '/runs', {
		bundleId,
		outcome,
		...(outcome === 'failed' ? failing : {}),
	});
}

/** Finished executions of the fleet watch, oldest first. */
async function sweeps(n8n) {
	const all = await n8n.executions(WORKFLOWS.fleetWatch.id);
	return all
		.filter((e) => e.status !== 'running' && e.status !== 'new' && e.stoppedAt)
		.sort((a, b) => Number(a.id) - Number(b.id));
}

/** Waits for a sweep that started after now, and answers its incident items. */
async function nextSweep(n8n, label) {
	const after = Date.now();
	const execution = await waitFor(
		`a fleet-watch sweep after ${label}`,
		async () => (await sweeps(n8n)).find((e) => Date.parse(e.startedAt) > after + 200) ?? undefined,
		{ timeoutMs: SWEEP_TIMEOUT_MS, intervalMs: 2000 },
	);
	const full = await n8n.execution(execution.id);
	const runData = full.data.resultData.runData;
	return {
		id: execution.id,
		status: execution.status,
		items: outputOf(runData, 'New failures, as incidents'),
		messages: outputOf(runData, 'Compose the message'),
	};
}

const describe = (items) => items.map((i) => `${i.event} ${i.endUserId} ${i.failedRuns}`);

/** acme and globex, each with an active installation (by id) and one run that succeeded. */
async function watchedCustomers(emulator) {
	const partner = await emulator.control('GET', '/partner');
	const customers = {};
	for (const id of ['acme', 'globex']) {
		const asUser = await customerSession(emulator, partner, id);
		customers[id] = await installFor(asUser, `${id} – lead sync`, true);
		await recordRun(emulator, customers[id], 'succeeded');
	}
	return customers;
}

export async function checkFleetWatch(checks, n8n, emulator) {
	await emulator.reset();
	const customers = await watchedCustomers(emulator);
	const seen = [];
	const step = async (label, expected) => {
		const sweep = await checks.step(
			`sweep after ${label}: ${expected.join(', ') || 'nothing'}`,
			() => nextSweep(n8n, label),
		);
		if (!sweep) return;
		seen.push(sweep);
		checks.equal(`sweep ${sweep.id} (${label}): incident items`, describe(sweep.items), expected);
	};
	await checks.step('activate "fleet watch" (REST)', () =>
		activateWorkflow(n8n, WORKFLOWS.fleetWatch.id),
	);
	try {
		await step('activation (history only)', []);
		await recordRun(emulator, customers.acme, 'failed');
		await step('acme fails', ['incidentOpened acme 1']);
		await recordRun(emulator, customers.globex, 'failed');
		await recordRun(emulator, customers.acme, 'failed');
		await step('globex fails, acme fails again', ['incidentOpened globex 1']);
		await recordRun(emulator, customers.acme, 'succeeded');
		await step('acme succeeds', ['incidentResolved acme 2']);
		await step('nothing new', []);
	} finally {
		await deactivateWorkflow(n8n, WORKFLOWS.fleetWatch.id);
	}
	const all = (await sweeps(n8n)).length;
	checks.ok(`at least 4 sweeps ran on the schedule (${all})`, all >= 4);
	checks.ok(
		'every sweep execution succeeded',
		seen.length > 0 && seen.every((s) => s.status === 'success'),
		JSON.stringify(seen.map((s) => [s.id, s.status])),
	);
	const events = seen.flatMap((s) => s.items);
	checks.equal(
		'over every sweep: each incident event once',
		describe(events).sort(),
		['incidentOpened acme 1', 'incidentOpened globex 1', 'incidentResolved acme 2'].sort(),
	);
	const opened = events.find((e) => e.event === 'incidentOpened' && e.endUserId === 'acme') ?? {};
	checks.ok(
		'incidentOpened names the customer, installation, automation and failing step',
		opened.installationId === customers.acme &&
			typeof opened.bundleTitle === 'string' &&
			opened.failedStep?.error === STEP_ERROR,
		JSON.stringify(opened),
	);
	const messages = seen.flatMap((s) => s.messages);
	checks.ok(
		'one composed message per incident event, naming the customer',
		messages.length === events.length &&
			messages.every((m, i) => m.subject?.includes(events[i].endUserId)),
		JSON.stringify(messages.map((m) => m.subject)),
	);
}
