// The AI Agent test's customers, tasks and agent workflows, and the emulator prepared for them (agent.mjs).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(
	path.dirname(fileURLToPath(import.meta.url)),
	'..',
	'..',
	'..',
);
const EXAMPLE = 'examples/ai-agent.workflow.json';
export const OPENAI_CREDENTIAL = { id: '2', name: 'OpenAI account', type: 'openAiApi' };
export const TASKS = [
	'pause the installation for Globex',
	"what is the email subject in ACME's installation?",
];
export const CUSTOMERS = { globex: 'Globex Inc. – lead sync', acme: 'ACME Corp – lead sync' };
export const ACME_SUBJECT = 'Your ACME order is on its way';

// ---- fixtures -------------------------------------------------------------------------------

/** Globex (active) and ACME (active, with its own email subject) for the emulator's user-1. */
export async function prepareEmulator(emulator) {
	for (const id of [5001, 5002]) await emulator.control('DELETE', `/installations/${id}`); // the fixtures' ACME and Globex
	const credentialData = {
		crm: 'hubspot',
		hubspotPipeline: 'sales',
		hubspotStage: 'new',
		mailer: 'mailchimp',
	};
	const install = (title) =>
		emulator.call('POST', '/solution/101/installation', {
			title,
			templateIds: [1011],
			credentialData,
		});
	const globex = await install(CUSTOMERS.globex);
	const acme = await install(CUSTOMERS.acme);
	await emulator.call('PAUSE', `/solution/installation/${acme.id}`);
	const state = await emulator.state();
	const step = state.bundleData.find(
		(r) =>
			state.installations.find((i) => i.id === acme.id).bundleIds.includes(r.bundleId) &&
			r.fields.some((f) => f.name === 'subject'),
	);
	await emulator.call('PUT', `/bundle/data/${step.id}`, { data: { subject: ACME_SUBJECT } });
	for (const { id } of [globex, acme]) await emulator.call('PLAY', `/solution/installation/${id}`);
	await emulator.control('DELETE', '/requests');
	return { globex: globex.id, acme: acme.id };
}

/**
 * The example with a manual trigger and one task in place of the chat trigger: one task per
 * execution, as in a chat. (With several items at once, n8n 2.41's agent replayed item 0's tool
 * calls in item 1's conversation, so each task runs alone.)
 */
export async function agentWorkflow(task, id, { chatCompletions = false } = {}) {
	const workflow = JSON.parse(await readFile(path.join(repoRoot, EXAMPLE), 'utf8'));
	// The model node uses OpenAI's Responses API by default; many OpenAI-compatible servers offer
	// only Chat Completions, which the last run uses.
	if (chatCompletions)
		workflow.nodes.find(
			(node) => node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi',
		).parameters.responsesApiEnabled = false;
	const chat = workflow.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.chatTrigger');
	const agent = workflow.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.agent');
	workflow.nodes = workflow.nodes.filter((node) => node !== chat);
	delete workflow.connections[chat.name];
	workflow.nodes.push(
		{
			parameters: {},
			name: 'Run task',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [-440, 300],
		},
		{
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ chatInput: task }), options: {} },
			name: 'Task',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [-220, 300],
		},
	);
	workflow.connections['Run task'] = { main: [[{ node: 'Task', type: 'main', index: 0 }]] };
	workflow.connections.Task = { main: [[{ node: agent.name, type: 'main', index: 0 }]] };
	return {
		...workflow,
		id,
		name: `${workflow.name} (e2e: ${task}${chatCompletions ? ', Chat Completions API' : ''})`,
	};
}
