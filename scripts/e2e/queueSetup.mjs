// What the queue-mode run's parts share (queue.mjs): the workflows under test and how they are
// called, the sizes (QUEUE_E2E_CUSTOMERS, QUEUE_E2E_CONCURRENCY), the timings printed at the end,
// and a plain POST to a webhook.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { readExample } from './lib/setup.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CUSTOMERS = Number(process.env.QUEUE_E2E_CUSTOMERS) || 50;
export const WORKER_CONCURRENCY = Number(process.env.QUEUE_E2E_CONCURRENCY) || 5;
export const WORKERS = 2;

/**
 * The onboarding workflow under test and how to call it. To test another onboarding workflow
 * (e.g. the partner-credential one), change `file`, `request` and `expectedTitle` here.
 */
export const ONBOARDING = {
	id: 'QueueOnboarding1',
	file: 'scripts/e2e/fixtures/queue-onboarding.workflow.json',
	webhookPath: 'albato-queue-onboard',
	request: (i) => ({ customer: customerName(i) }),
	expectedTitle: (i) => `${customerName(i)} – lead sync`,
	/** What every new installation must look like in the emulator. */
	expected: { solutionId: 101, status: 1, templateIds: [1011], userId: 'user-1' },
};
/** Partner mode: the example (it references PARTNER_CREDENTIAL). */
export const PARTNER = {
	id: 'QueuePartnerOnb1',
	file: 'examples/new-customer-onboarding.workflow.json',
	customer: (i) => ({
		customerId: `queue-partner-${String(i + 1).padStart(3, '0')}`,
		company: `Partner Customer ${String(i + 1).padStart(3, '0')}`,
	}),
};
export const UPDATE = {
	id: 'QueueUpdateField',
	file: 'scripts/e2e/fixtures/queue-update.workflow.json',
	webhookPath: 'albato-queue-update',
};
export const TRIGGER = { id: 'QueueTriggerWf01' };
const customerName = (i) => `Queue Customer ${String(i + 1).padStart(3, '0')}`;

/** Seconds per step, printed at the end of the run. */
export const timings = {};
export const seconds = (ms) => Math.round(ms / 100) / 10;
export async function timed(name, fn) {
	const started = Date.now();
	try {
		return await fn();
	} finally {
		timings[name] = seconds(Date.now() - started);
	}
}

export async function readWorkflow(file, id) {
	return { ...JSON.parse(await readFile(path.join(repoRoot, file), 'utf8')), id };
}

/**
 * The trigger example (every minute, n8n's shortest poll), for "created" only, so that each event
 * is countable while the other workflows pause and start installations.
 */
export async function triggerWorkflow() {
	const workflow = await readExample(repoRoot, 'trigger');
	const trigger = workflow.nodes.find((node) => node.type.endsWith('albatoSolutionsTrigger'));
	trigger.parameters.events = ['installationCreated'];
	return { ...workflow, id: TRIGGER.id, name: 'Queue e2e – installation created' };
}

/** POST JSON → `{ status, json, text }` (json undefined when the answer is not JSON). */
export async function post(url, body, headers = { 'content-type': 'application/json' }) {
	const response = await fetch(url, {
		method: 'POST',
		headers,
		body: JSON.stringify(body),
	});
	const text = await response.text();
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.status, json, text };
}

/** The value of the installation's "subject" field. */
export const subjectOf = (state, installation) =>
	state.bundleData
		.filter((record) => installation.bundleIds.includes(record.bundleId))
		.flatMap((record) => record.fields)
		.find((field) => field.name === 'subject')?.value;
