// What both `npm run e2e:n8n` and `npm run dev` put into a fresh n8n: the emulator's
// credential and the examples/ workflows, through n8n's own CLI.

import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The credential the examples reference. */
export const CREDENTIAL = {
	id: '1',
	name: 'Albato Solutions (emulator)',
	type: 'albatoSolutionsApi',
};

/**
 * The examples with fixed ids (n8n ids are 16 letters/digits), so the CLI can address them.
 * The files themselves have no id: `import:workflow` would otherwise make one up.
 */
export const WORKFLOWS = {
	onboarding: { id: 'AlbatoOnboarding', file: 'examples/customer-onboarding.workflow.json' },
	trigger: { id: 'AlbatoTriggerWf1', file: 'examples/installation-trigger.workflow.json' },
	connectByLink: { id: 'AlbatoConnectLnk', file: 'examples/connect-by-link.workflow.json' },
	failedRunsAlert: { id: 'AlbatoRunFailed1', file: 'examples/failed-runs-alert.workflow.json' },
	offboarding: { id: 'AlbatoOffboard01', file: 'examples/customer-offboarding.workflow.json' },
	runsSweep: { id: 'AlbatoRunsSweep1', file: 'examples/runs-sweep.workflow.json' },
	usageTopUp: { id: 'AlbatoUsageTopUp', file: 'examples/usage-topup.workflow.json' },
	// Imported with its schedule at every 20 s (5 min in the file), so that e2e sees several sweeps,
	// and Run → Get New at node version 4 (runs returned at once: version 5 returns a run once its
	// lateness and its 5-minute tick have passed, which the fleet bench checks on a moved clock).
	fleetWatch: {
		id: 'AlbatoFleetWatch',
		file: 'examples/fleet-watch.workflow.json',
		everySeconds: 20,
		getNewVersion: 4,
	},
};

/** The Header Auth credential every webhook example with `headerAuth` is pointed at on import. */
export const HEADER_CREDENTIAL = {
	id: '3',
	name: 'Webhook secret header (e2e)',
	type: 'httpHeaderAuth',
	data: { name: 'X-Webhook-Secret', value: 'e2e-webhook-secret' },
};

/**
 * Webhooks with Header Auth use HEADER_CREDENTIAL and are enabled, as a user sets them up (the
 * examples name a credential to fill in and ship the webhook disabled until then).
 */
function withHeaderCredential(workflow) {
	const { id, name } = HEADER_CREDENTIAL;
	const nodes = workflow.nodes.map((node) =>
		node.type === 'n8n-nodes-base.webhook' && node.parameters?.authentication === 'headerAuth'
			? {
					...node,
					disabled: false,
					credentials: { ...node.credentials, httpHeaderAuth: { id, name } },
				}
			: node,
	);
	return { ...workflow, nodes };
}

/** The Schedule Trigger set to every `seconds` (WORKFLOWS' `everySeconds`). */
function withScheduleEvery(workflow, seconds) {
	const nodes = workflow.nodes.map((node) =>
		node.type === 'n8n-nodes-base.scheduleTrigger'
			? {
					...node,
					parameters: {
						...node.parameters,
						rule: { interval: [{ field: 'seconds', secondsInterval: seconds }] },
					},
				}
			: node,
	);
	return { ...workflow, nodes };
}

/** Run → Get New's nodes at `version` (WORKFLOWS' `getNewVersion`). */
export function withGetNewAt(workflow, version) {
	const nodes = workflow.nodes.map((node) =>
		node.parameters?.operation === 'getNew' ? { ...node, typeVersion: version } : node,
	);
	return { ...workflow, nodes };
}

export async function readExample(repoRoot, key) {
	const { id, file, everySeconds, getNewVersion } = WORKFLOWS[key];
	const read = JSON.parse(await readFile(path.join(repoRoot, file), 'utf8'));
	const workflow = getNewVersion ? withGetNewAt(read, getNewVersion) : read;
	const scheduled = everySeconds ? withScheduleEvery(workflow, everySeconds) : workflow;
	return withHeaderCredential({ ...scheduled, id });
}

/** Import the credentials (data in plain JSON; n8n encrypts them on import) and the examples. */
export async function importFixtures(n8n, repoRoot, emulator, log = console.log) {
	await n8n.importCredentials([
		{ ...CREDENTIAL, data: { baseUrl: emulator.baseUrl, accessToken: emulator.token } },
		HEADER_CREDENTIAL,
	]);
	log(`imported credential "${CREDENTIAL.name}" → ${emulator.baseUrl}`);
	const workflows = {};
	for (const key of Object.keys(WORKFLOWS)) workflows[key] = await readExample(repoRoot, key);
	// One CLI call for all of them (each n8n start costs seconds).
	await n8n.importWorkflows(Object.values(workflows));
	for (const workflow of Object.values(workflows))
		log(`imported workflow ${workflow.id} "${workflow.name}"`);
	return workflows;
}
