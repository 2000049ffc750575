// An example workflow run in a running n8n through a webhook put in place of its manual trigger
// (same node name, same connections), and read back through the REST API once it finished: the
// fleet change and restore (fleet.mjs) and the fleet upgrade and roll back (fleetUpgrade.mjs).

import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { waitFor } from './proc.mjs';
import { callWebhook } from './webhook.mjs';

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

/** A node's outputs in a run's data: one list of items per output. */
export const outputs = (runData, name) =>
	(runData[name]?.[0]?.data?.main ?? []).map((items) => items ?? []);

const finished = (e) => e.status !== 'running' && e.status !== 'new' && e.stoppedAt;

/** One run through the webhook, once the execution finished: `{ id, status, runData, error }`. */
export async function runToEnd(n8n, target, label) {
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
