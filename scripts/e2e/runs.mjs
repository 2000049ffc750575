// In real n8n (called while `n8n start` runs, after the partner checks imported the
// Albato Partner API credential), with connect-by-link inside the trigger's wait:
//
//  1. customers acme and globex (one installation each) and e2e-leaving (two: started, paused)
//  2. examples/failed-runs-alert.workflow.json, active: its first poll is the baseline; then acme
//     gets a failed, a succeeded and a still-running run (POST /__emulator/runs)
//  3. while the trigger's next poll comes ("every minute"): customer-offboarding (webhook with and
//     without its secret), connect-by-link (connections.mjs), runs-sweep (`n8n execute`)
//  4. the trigger: one Run Failed for the failed run, then a second failed run → one more Run
//     Failed in a later poll; nothing for the others, nothing repeated; the composed alert names
//     the customer, the automation and the failing step's error

import { setTimeout as sleep } from 'node:timers/promises';

import { checkConnectByLink } from './connections.mjs';
import { customerSession, installFor } from './partner.mjs';
import { waitFor } from './lib/proc.mjs';
import { readExample, WORKFLOWS } from './lib/setup.mjs';
import {
	activateWorkflow,
	callWebhook,
	checkRefusedWithoutSecret,
	deactivateWorkflow,
	SECRET_HEADER,
	webhookPathOf,
} from './lib/webhook.mjs';

const POLL_TIMEOUT_MS = 150_000; // "every minute": at most ~60 s, plus slack
const STEP_ERROR = 'CRM refused the contact (e2e)';
const outputOf = (runData, name) =>
	(runData[name]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);

/** A customer made by the partner's backend, with installations (true = started). */
async function customer(emulator, partner, customerId, started) {
	const asUser = await customerSession(emulator, partner, customerId);
	const ids = [];
	for (const [i, on] of started.entries())
		ids.push(await installFor(asUser, `${customerId} – sync ${i + 1}`, on));
	return { customerId, sub: `${partner.name}:${customerId}`, installationIds: ids };
}

async function recordRun(emulator, installationId, outcome, extra = {}) {
	const state = await emulator.state();
	const [bundleId] = state.installations.find((i) => i.id === installationId).bundleIds;
	const failing = { steps: [[{}], [{ status: 'failed', error: STEP_ERROR }]] };
	return emulator.control('POST', '/runs', {
		bundleId,
		outcome,
		...(outcome === 'failed' ? failing : {}),
		...extra,
	});
}

// ---- the trigger ----------------------------------------------------------------------------

/** The trigger's polls so far: its run-history reads as acme. */
const pollsOf = async (emulator, sub) =>
	(await emulator.requests()).filter(
		(r) => r.method === 'GET' && r.path === '/bundle/events' && r.user === sub,
	).length;

/** Every trigger item and composed alert of the alert workflow's executions. */
async function alertsSoFar(n8n) {
	const seen = [];
	for (const summary of await n8n.executions(WORKFLOWS.failedRunsAlert.id)) {
		const execution = await n8n.execution(summary.id);
		const runData = execution.data.resultData.runData;
		const composed = outputOf(runData, 'Compose the alert');
		outputOf(runData, 'Run failed').forEach((event, i) =>
			seen.push({ event, alert: composed[i], status: summary.status }),
		);
	}
	return seen;
}

const waitForAlert = (n8n, runId) =>
	waitFor(
		`a Run Failed for run ${runId}`,
		async () => {
			const seen = await alertsSoFar(n8n);
			return seen.some((s) => s.event.runId === runId) ? seen : undefined;
		},
		{ timeoutMs: POLL_TIMEOUT_MS, intervalMs: 3000 },
	);

async function startAlert(checks, emulator, n8n, acme) {
	await checks.step(
		'activate "failed runs alert" (REST); its first poll is the baseline',
		async () => {
			await activateWorkflow(n8n, WORKFLOWS.failedRunsAlert.id);
			await waitFor('the baseline poll', async () => (await pollsOf(emulator, acme.sub)) >= 1, {
				timeoutMs: 60_000,
			});
		},
	);
	const [installationId] = acme.installationIds;
	const failed = await recordRun(emulator, installationId, 'failed');
	const succeeded = await recordRun(emulator, installationId, 'succeeded');
	const running = await recordRun(emulator, installationId, 'inProgress');
	console.log(
		`    acme: runs ${failed.id} failed, ${succeeded.id} succeeded, ${running.id} in progress; the next poll comes within a minute`,
	);
	return { installationId, failed, succeeded, running, started: Date.now() };
}

async function finishAlert(checks, emulator, n8n, acme, runs) {
	const { failed, succeeded, running } = runs;
	await checks.step(`Run Failed for run ${failed.id} in the next poll`, () =>
		waitForAlert(n8n, failed.id),
	);
	console.log(`    first alert after ${Math.round((Date.now() - runs.started) / 1000)} s`);
	const later = await recordRun(emulator, runs.installationId, 'failed');
	const pollsBefore = await pollsOf(emulator, acme.sub);
	const seen = await checks.step(
		`a later failed run ${later.id} → Run Failed in a later poll`,
		() => waitForAlert(n8n, later.id),
	);
	// Let one more poll pass after that: still nothing new.
	await waitFor(
		'one more poll',
		async () => (await pollsOf(emulator, acme.sub)) >= pollsBefore + 2,
		{
			timeoutMs: POLL_TIMEOUT_MS,
			intervalMs: 2000,
		},
	);
	await sleep(3000); // an execution of that poll would be stored by now
	const all = await alertsSoFar(n8n);
	console.log(`    trigger polls as acme: ${await pollsOf(emulator, acme.sub)}`);
	checks.equal(
		'exactly one Run Failed per failed run, over every poll (none for the succeeded or running run)',
		all.map((s) => [s.event.event, s.event.runId]).sort(),
		[
			['runFailed', failed.id],
			['runFailed', later.id],
		].sort(),
	);
	checks.ok(
		`no event for the succeeded (${succeeded.id}) or still running (${running.id}) run`,
		!all.some((s) => [succeeded.id, running.id].includes(s.event.runId)),
	);
	checks.ok(
		'each alert execution succeeded',
		all.length > 0 && all.every((s) => s.status === 'success'),
	);
	const first = seen.find((s) => s.event.runId === failed.id) ?? {};
	const { event = {}, alert = {} } = first;
	checks.ok(
		'the trigger item: customer, installation, automation, failing step with its error',
		event.endUserId === 'acme' &&
			event.installationId === runs.installationId &&
			typeof event.bundleTitle === 'string' &&
			event.failedStep?.error === STEP_ERROR,
		JSON.stringify(event),
	);
	checks.ok(
		"the composed alert (the message node's input) names them",
		[event.endUserId, event.bundleTitle, STEP_ERROR].every(
			(part) => alert.subject?.includes(part) || alert.text?.includes(part),
		) && alert.text?.includes(`Customer: acme`),
		JSON.stringify(alert),
	);
	await deactivateWorkflow(n8n, WORKFLOWS.failedRunsAlert.id);
}

// ---- offboarding ----------------------------------------------------------------------------

async function checkOffboarding({ checks, emulator, n8n, repoRoot, ignore }, leaving) {
	const { id } = WORKFLOWS.offboarding;
	const webhookPath = webhookPathOf(await readExample(repoRoot, 'offboarding'));
	await checks.step('activate "customer offboarding" (REST)', () => activateWorkflow(n8n, id));
	const body = { customerId: leaving.customerId };

	await checkRefusedWithoutSecret({ checks, n8n, emulator, ignore }, webhookPath, body);

	let logged = (await emulator.requests()).length;

	logged = (await emulator.requests()).length;
	const answer = await callWebhook(n8n, webhookPath, body, SECRET_HEADER);
	checks.ok(
		'webhook with the secret → 200, the user deleted',
		answer.status === 200 && answer.json?.deleted === true,
		`${answer.status} ${answer.text.slice(0, 500)}`,
	);
	const state = await emulator.state();
	checks.ok(
		`emulator: ${leaving.customerId} is gone, and all their installations`,
		!state.endUsers.some((u) => u.id === leaving.customerId) &&
			!state.installations.some(
				(i) => i.userId === leaving.sub || leaving.installationIds.includes(i.id),
			),
		JSON.stringify(state.endUsers),
	);
	const calls = (await emulator.requests()).slice(logged).filter((r) => !ignore(r));
	const deleteAt = calls.findIndex((r) => r.method === 'POST' && /\/delete-user$/.test(r.path));
	checks.equal(
		'emulator: the started installation paused before the delete, as the customer',
		calls
			.slice(0, deleteAt)
			.filter((r) => r.method === 'PAUSE')
			.map((r) => [r.path, r.user]),
		[[`/solution/installation/${leaving.installationIds[0]}`, leaving.sub]],
	);
	checks.equal(
		'emulator: nothing sent after the delete',
		calls.slice(deleteAt + 1).map((r) => `${r.method} ${r.path}`),
		[],
	);

	// Offboarded again (a retry of the billing system): no cached token of theirs comes back.
	logged = (await emulator.requests()).length;
	const again = await callWebhook(n8n, webhookPath, body, SECRET_HEADER);
	const retry = (await emulator.requests()).slice(logged).filter((r) => !ignore(r));
	checks.ok(
		'the same customer again: the node asks for a new token (refused: user gone) and never sends theirs',
		retry.some(
			(r) => /get-user-session-token$/.test(r.path) && r.body?.id === leaving.customerId,
		) && !retry.some((r) => r.status === 401 || r.user === leaving.sub),
		`${again.status}\n${retry.map((r) => `${r.method} ${r.path} ${r.status} ${r.user}`).join('\n')}`,
	);
	await deactivateWorkflow(n8n, id);
}

// ---- the sweep ------------------------------------------------------------------------------

async function checkSweep(checks, n8n, expected) {
	const result = await checks.step('n8n execute runs "failed runs sweep" ("Run now")', async () => {
		const executed = await n8n.execute(WORKFLOWS.runsSweep.id);
		if (!executed.run || executed.code !== 0)
			throw new Error(`exit ${executed.code}\n${executed.output.slice(-3000)}`);
		return executed;
	});
	const runs = outputOf(result.run.data.resultData.runData, 'Failed runs, last hour');
	checks.equal(
		'the failed runs of acme and globex in the last hour, and nothing else',
		runs.map((run) => run.id).sort(),
		[...expected].sort(),
	);
	checks.ok(
		'each one failed, with its failing step',
		runs.length > 0 && runs.every((run) => run.outcome === 'failed' && run.failedStep?.error),
		JSON.stringify(runs.map((run) => [run.id, run.outcome])),
	);
}

// ---- all together -----------------------------------------------------------------------------

export async function checkRunsAndConnections(checks, n8n, emulator, repoRoot) {
	// The installation trigger (step 5) is done: its polls would blur "nothing reached the service".
	// (run.mjs deactivates it after its own group; again here for a run that starts with this group.)
	await deactivateWorkflow(n8n, WORKFLOWS.trigger.id);
	await emulator.reset();
	const partner = await emulator.control('GET', '/partner');
	const acme = await customer(emulator, partner, 'acme', [true]);
	const globex = await customer(emulator, partner, 'globex', [true]);
	const leaving = await customer(emulator, partner, 'e2e-leaving', [true, false]);
	const hour = 3_600_000;
	const [globexInstallation] = globex.installationIds;
	const recent = await recordRun(emulator, globexInstallation, 'failed', {
		dateCreated: new Date(Date.now() - hour / 6).toISOString(),
	});
	await recordRun(emulator, globexInstallation, 'failed', {
		dateCreated: new Date(Date.now() - 2 * hour).toISOString(),
	});
	await recordRun(emulator, globexInstallation, 'succeeded');

	const runs = await startAlert(checks, emulator, n8n, acme);
	// The alert trigger keeps polling as acme meanwhile: its calls are not the webhooks'.
	const ignore = (r) => r.user === acme.sub || r.body?.id === acme.customerId;

	await checks.group('Customer offboarding (webhook, Header Auth)', () =>
		checkOffboarding({ checks, emulator, n8n, repoRoot, ignore }, leaving),
	);
	await checks.group('Connect by link (webhook, Wait loop, link completed)', () =>
		checkConnectByLink(checks, n8n, emulator, repoRoot, { partner, ignore }),
	);
	await checks.group('Failed runs sweep (n8n execute)', () =>
		checkSweep(checks, n8n, [runs.failed.id, recent.id]),
	);
	await checks.group('Failed runs alert (active trigger, several polls)', () =>
		finishAlert(checks, emulator, n8n, acme, runs),
	);
}
