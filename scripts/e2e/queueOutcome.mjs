// What the queue-mode run checks last (queue.mjs): the trigger on main reported each new
// installation once; every execution succeeded, each on exactly one worker, both workers used; no
// token in what n8n stored or logged.

import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { waitFor } from './lib/proc.mjs';
import { holdsToken } from './partner.mjs';
import { CUSTOMERS, ONBOARDING, PARTNER, TRIGGER, UPDATE } from './queueSetup.mjs';

/** No master token, no end-user token (JWT or permanent) in what n8n stored or logged. */
export async function checkNoTokens(checks, postgres, logFiles, partner, emulator) {
	const leaks = (text) => holdsToken(text, partner.masterToken) || text.includes(emulator.token);
	const stored = await postgres.psql(
		'SELECT "executionId", data FROM execution_data ORDER BY "executionId"',
	);
	const leaking = stored.filter(([, data]) => leaks(data)).map(([id]) => id);
	checks.ok(
		`Postgres: no token in the ${stored.length} executions' data`,
		stored.length > 0 && leaking.length === 0,
		`executions ${leaking.join(', ')}`,
	);
	const logs = await Promise.all(
		logFiles.map(async (file) => ({
			file: path.basename(file),
			text: await readFile(file, 'utf8'),
		})),
	);
	const leakingLogs = logs.filter(({ text }) => leaks(text)).map(({ file }) => file);
	checks.equal(`no token in the logs of main, workers and webhook processor`, leakingLogs, []);
}

export async function checkTrigger(checks, n8n, installations) {
	const expected = new Set(installations.map((i) => i.id));
	const events = await checks.step(
		`the trigger reports all ${installations.length} new installations`,
		() =>
			waitFor(
				'trigger executions with every new installation',
				async () => {
					const seen = [];
					for (const summary of await n8n.executions(TRIGGER.id)) {
						if (summary.status !== 'success') continue;
						const execution = await n8n.execution(summary.id);
						const runData = execution.data.resultData.runData;
						const triggerName = execution.workflowData.nodes.find((node) =>
							node.type.endsWith('albatoSolutionsTrigger'),
						).name;
						for (const item of runData[triggerName]?.[0]?.data?.main?.[0] ?? [])
							seen.push(item.json);
					}
					const covered = [...expected].every((id) => seen.some((e) => e.installationId === id));
					return covered ? seen : undefined;
				},
				{ timeoutMs: 150_000, intervalMs: 3000 },
			), // the next poll: at most a minute away, plus slack
	);
	const ids = events.map((e) => e.installationId);
	checks.equal(
		'exactly one "created" event per installation (not one per worker)',
		ids.length,
		expected.size,
	);
	checks.ok(
		'no event for anything else',
		ids.every((id) => expected.has(id)),
		JSON.stringify(ids),
	);
}

/** Execution ids a worker's log says it ran ("Worker started execution 12 (job 3)"). */
async function workerExecutions(worker) {
	const log = await readFile(worker.logFile, 'utf8');
	return [...log.matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]);
}

/** The name of the worker that ran execution `id` (undefined: none of them). */
export const workerOf = (workers) => async (id) => {
	for (const worker of workers)
		if ((await workerExecutions(worker)).includes(String(id))) return worker.name;
	return undefined;
};

export async function checkExecutions(checks, postgres, workers, watchSweeps) {
	const rows = await postgres.psql(
		'SELECT id, "workflowId", status, mode FROM execution_entity ORDER BY id',
	);
	const byWorkflow = {};
	for (const [, workflowId] of rows) byWorkflow[workflowId] = (byWorkflow[workflowId] ?? 0) + 1;
	console.log(`    executions in Postgres: ${JSON.stringify(byWorkflow)}`);
	checks.equal(
		`Postgres: ${CUSTOMERS} onboarding executions`,
		byWorkflow[ONBOARDING.id],
		CUSTOMERS,
	);
	checks.equal('Postgres: 3 update executions', byWorkflow[UPDATE.id], 3);
	for (const [workflowId, sweeps] of Object.entries(watchSweeps))
		checks.equal(
			`Postgres: ${sweeps} fleet-watch sweeps of ${workflowId}`,
			byWorkflow[workflowId] ?? 0,
			sweeps,
		);
	checks.equal(
		`Postgres: ${CUSTOMERS} partner onboarding executions`,
		byWorkflow[PARTNER.id],
		CUSTOMERS,
	);
	const notOk = rows.filter(([, , status]) => status !== 'success');
	checks.ok(
		`Postgres: all ${rows.length} executions have status "success"`,
		rows.length > 0 && notOk.length === 0,
		() => notOk.map((r) => r.join(' ')).join('\n'),
	);

	const ran = await Promise.all(workers.map(workerExecutions));
	for (const [i, ids] of ran.entries())
		console.log(`    ${workers[i].name} ran ${ids.length} executions`);
	checks.ok(
		'both workers ran executions',
		ran.every((ids) => ids.length > 0),
		JSON.stringify(ran.map((ids) => ids.length)),
	);
	const all = ran.flat();
	checks.equal(
		'each execution ran on exactly one worker, and all of them did',
		[...all].sort((a, b) => a - b),
		rows.map(([id]) => id),
	);
}
