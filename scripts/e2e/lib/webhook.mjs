// Active webhook workflows in a running n8n: activation through the REST API, and calls to their
// production URL (with or without the Header Auth secret).

import { HEADER_CREDENTIAL } from './setup.mjs';
import { waitFor } from './proc.mjs';

/** Activate a workflow through n8n's REST API (as the editor's toggle does; per version). */
export const activateWorkflow = (n8n, workflowId) => n8n.activate(workflowId);

export const deactivateWorkflow = (n8n, workflowId) => n8n.deactivate(workflowId);

/** The Header Auth header n8n expects (HEADER_CREDENTIAL). */
export const SECRET_HEADER = { [HEADER_CREDENTIAL.data.name]: HEADER_CREDENTIAL.data.value };

/** The path of the workflow's webhook node. */
export const webhookPathOf = (workflow) =>
	workflow.nodes.find((node) => node.type === 'n8n-nodes-base.webhook').parameters.path;

/**
 * POST JSON to a production webhook → `{ status, text, json }`. A 404 "not registered" (n8n may
 * register the webhook a moment after activation) ran nothing, so it is asked again.
 */
export function callWebhook(n8n, webhookPath, body, headers = {}) {
	return waitFor(
		`the webhook /${webhookPath}`,
		async () => {
			const response = await fetch(`${n8n.baseUrl}/webhook/${webhookPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: JSON.stringify(body),
			});
			const text = await response.text();
			if (response.status === 404 && /not registered/.test(text)) return undefined;
			let json;
			try {
				json = JSON.parse(text);
			} catch {
				json = undefined;
			}
			return { status: response.status, text, json };
		},
		{ timeoutMs: 90_000, intervalMs: 1000 },
	);
}

/**
 * Without the Header Auth secret n8n refuses the call, and nothing reaches the service.
 * `ignore(request)`: the emulator's log entries that are not the webhook's (say, a trigger polling).
 */
export async function checkRefusedWithoutSecret(
	{ checks, n8n, emulator, ignore },
	webhookPath,
	body,
) {
	const logged = (await emulator.requests()).length;
	const refused = await callWebhook(n8n, webhookPath, body);
	checks.ok(
		'webhook without the secret header → refused by n8n (401/403)',
		[401, 403].includes(refused.status),
		`${refused.status} ${refused.text.slice(0, 300)}`,
	);
	const reached = (await emulator.requests()).slice(logged).filter((r) => !ignore(r));
	checks.equal('…and nothing reached the service', reached, []);
}
