// `npm run e2e:agent`: n8n's AI Agent calls our node as a tool (`albatoSolutionsTool`), in the real
// n8n 2.41, with an OpenAI chat model node whose credential points at a scripted fake model server
// on loopback (lib/fake-openai.mjs). No real model, no network.
//
// The workflow is examples/ai-agent.workflow.json with its chat trigger swapped for a manual
// trigger and one task, run with `n8n execute`: "pause the installation for Globex", then "what is
// the email subject in ACME's installation?" (through the Responses API, then Chat Completions). The tools' parameters are n8n's automatic ones (the
// `$fromAI(…)` overrides the editor writes when a parameter is left to the model), so the schema
// the model receives is exactly what an n8n user's agent would get. The fake model reads that
// schema, calls the tools step by step, and answers from what the tools returned.
//
// Checks the agent's answers, the tool calls and their arguments, the emulator's request log and
// state, and records the tool schema n8n sent (printed, and saved as tool-schema.json in the n8n
// folder). Ends with `N passed, N failed`. Env: N8N_E2E_KEEP=1 keeps the n8n folder.

import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Checks } from './lib/checks.mjs';
import { Emulator } from './lib/emulator.mjs';
import { startFakeOpenAi } from './lib/fake-openai.mjs';
import { ensureN8n } from './lib/install.mjs';
import { N8nInstance } from './lib/n8n.mjs';
import { killAll } from './lib/proc.mjs';
import { CREDENTIAL } from './lib/setup.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const EXAMPLE = 'examples/ai-agent.workflow.json';
const OPENAI_CREDENTIAL = { id: '2', name: 'OpenAI account', type: 'openAiApi' };
const TASKS = [
	'pause the installation for Globex',
	"what is the email subject in ACME's installation?",
];
const CUSTOMERS = { globex: 'Globex Inc. – lead sync', acme: 'ACME Corp – lead sync' };
const ACME_SUBJECT = 'Your ACME order is on its way';

const timings = {};
const seconds = (ms) => Math.round(ms / 100) / 10;

// ---- the scripted model ---------------------------------------------------------------------

/** Every object (at any depth) of a tool's JSON output. */
function objectsIn(text) {
	let value;
	try {
		value = JSON.parse(text);
	} catch {
		return [];
	}
	const found = [];
	const walk = (v) => {
		if (Array.isArray(v)) v.forEach(walk);
		else if (v && typeof v === 'object') {
			found.push(v);
			Object.values(v).forEach(walk);
		} else if (typeof v === 'string' && /^[[{]/.test(v.trim()))
			objectsIn(v).forEach((o) => found.push(o));
	};
	walk(value);
	return found;
}

/** The one parameter of a tool whose name or description matches `pattern`; throws otherwise. */
function parameterFor(tool, pattern, what) {
	const properties = tool.parameters?.properties ?? {};
	const keys = Object.keys(properties).filter((key) =>
		pattern.test(`${key} ${properties[key].description ?? ''}`),
	);
	if (keys.length !== 1)
		throw new Error(
			`cannot tell which parameter of ${tool.name} is ${what}: ${JSON.stringify(properties)}`,
		);
	return keys[0];
}

/**
 * One turn of the model: the next tool call, or the final answer. Stateless: everything comes from
 * the conversation n8n sends (the task, the tools, the tool calls so far and their results).
 *
 * For the pause, the model first passes the installation's title, as a model may when a parameter
 * is only called "Installation"; the node's error must then tell it to send the ID instead.
 */
function decide({ task, tools, steps }) {
	const tool = (pattern) => {
		const found = tools.find((t) => pattern.test(t.name));
		if (!found)
			throw new Error(`no tool matching ${pattern} among ${tools.map((t) => t.name).join(', ')}`);
		return found;
	};
	const customer = /globex/i.test(task) ? 'Globex' : /acme/i.test(task) ? 'ACME' : undefined;
	if (!customer) throw new Error(`unexpected task: ${task}`);
	if (steps.length === 0) {
		const list = tool(/list/i);
		return {
			toolCall: {
				name: list.name,
				args: { [parameterFor(list, /title/i, 'the title filter')]: customer },
			},
		};
	}
	const installation = objectsIn(steps[0].output).find(
		(o) => o.id !== undefined && String(o.title ?? '').includes(customer),
	);
	if (!installation)
		throw new Error(
			`the list tool returned no installation for ${customer}: ${steps[0].output.slice(0, 500)}`,
		);
	const pausing = /pause/i.test(task);
	const next = pausing ? tool(/pause/i) : tool(/field|read/i);
	const key = parameterFor(next, /installation/i, 'the installation');
	if (pausing && steps.length === 1)
		return { toolCall: { name: next.name, args: { [key]: installation.title } } };
	if (pausing && steps.length === 2) {
		if (!/give its ID/.test(steps[1].output))
			throw new Error(
				`a title as "${key}" did not get an error that asks for the ID: ${steps[1].output.slice(0, 500)}`,
			);
		return { toolCall: { name: next.name, args: { [key]: String(installation.id) } } };
	}
	if (!pausing && steps.length === 1)
		return { toolCall: { name: next.name, args: { [key]: String(installation.id) } } };
	const result = steps.at(-1).output;
	if (pausing) {
		const paused = objectsIn(result).find((o) => String(o.id) === String(installation.id));
		if (!paused)
			throw new Error(`the pause tool did not return the installation: ${result.slice(0, 500)}`);
		return {
			text: `Paused "${paused.title}" (installation ${paused.id}); its status is now ${paused.status === 0 ? 'paused' : paused.status}.`,
		};
	}
	const subject = objectsIn(result).find((o) => o.name === 'subject');
	if (!subject) throw new Error(`no subject field in the tool output: ${result.slice(0, 500)}`);
	return {
		text: `The email subject in ACME's installation (${installation.id}) is "${subject.value}".`,
	};
}

// ---- fixtures -------------------------------------------------------------------------------

/** Globex (active) and ACME (active, with its own email subject) for the emulator's user-1. */
async function prepareEmulator(emulator) {
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
async function agentWorkflow(task, id, { chatCompletions = false } = {}) {
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

// ---- checks ---------------------------------------------------------------------------------

function checkSchema(checks, modelRequests, toolNames) {
	const first = modelRequests.find((r) => r.conversation?.tools.length);
	const tools = first?.conversation.tools ?? [];
	checks.equal(
		'n8n sent our 4 tool nodes to the model',
		tools.map((t) => t.name).sort(),
		toolNames.map((n) => n.replaceAll(' ', '_')).sort(),
	);
	console.log('    tool schema n8n sent to the model:');
	for (const tool of tools) {
		const properties = Object.entries(tool.parameters?.properties ?? {}).map(
			([key, p]) => `${key}: ${p.type}${p.description ? ` "${p.description}"` : ''}`,
		);
		console.log(`      ${tool.name} — "${tool.description}" (${properties.join(', ')})`);
	}
	checks.ok(
		'every tool has a description that names the action and the node',
		tools.every((t) => /Albato Solutions/.test(t.description ?? '')),
		JSON.stringify(tools.map((t) => t.description)),
	);
	for (const tool of tools.filter((t) => !/list/i.test(t.name))) {
		const keys = Object.keys(tool.parameters?.properties ?? {});
		checks.ok(
			`${tool.name}: its one parameter says it is the installation ID`,
			keys.length === 1 &&
				/installation.*id|id.*installation/i.test(
					`${keys[0]} ${tool.parameters.properties[keys[0]].description ?? ''}`,
				),
			JSON.stringify(tool.parameters),
		);
	}
	return tools;
}

async function main() {
	const checks = new Checks();
	const runStarted = Date.now();
	let n8n;
	let emulator;
	let fake;
	try {
		const install = await ensureN8n();
		emulator = await Emulator.start(repoRoot);
		fake = await startFakeOpenAi(decide, { log: (line) => console.log(`    model ← ${line}`) });
		n8n = await N8nInstance.create(install, repoRoot);
		console.log(
			`emulator ${emulator.baseUrl}; fake model ${fake.baseUrl}; n8n user folder ${n8n.userFolder}`,
		);
		const ids = await prepareEmulator(emulator);
		console.log(
			`    installed for user-1: Globex ${ids.globex}, ACME ${ids.acme} (subject "${ACME_SUBJECT}")`,
		);

		const workflows = [
			...(await Promise.all(
				TASKS.map((task, i) => agentWorkflow(task, `AlbatoAgentE2e0${i + 1}`)),
			)),
			await agentWorkflow(TASKS[1], 'AlbatoAgentE2e03', { chatCompletions: true }),
		];
		const toolNames = workflows[0].nodes
			.filter((node) => node.type === 'n8n-nodes-albato-solutions.albatoSolutionsTool')
			.map((node) => node.name);
		const answers = [];
		await checks.group(
			'AI Agent with our node as tools (n8n execute, one task per execution)',
			async () => {
				await checks.step(
					'import the credentials (Albato, OpenAI → fake model) and the agent workflows',
					async () => {
						await n8n.importCredentials([
							{ ...CREDENTIAL, data: { baseUrl: emulator.baseUrl, accessToken: emulator.token } },
							{ ...OPENAI_CREDENTIAL, data: { apiKey: 'sk-fake-e2e-key', url: fake.baseUrl } },
						]);
						for (const workflow of workflows) await n8n.importWorkflow(workflow);
					},
				);
				for (const [i, workflow] of workflows.entries()) {
					const result = await checks.step(
						`n8n execute: ${workflow.name.replace(/^.*\(e2e: /, '"').replace(/\)$/, '')}`,
						async () => {
							const executed = await n8n.execute(workflow.id, { timeoutMs: 240_000 });
							if (!executed.run)
								throw new Error(
									`no run JSON in the output (exit ${executed.code})\n${executed.output.slice(-3000)}`,
								);
							return executed;
						},
					);
					timings[`task ${i + 1} (s)`] = seconds(result.ms);
					const { run } = result;
					checks.ok(
						'  execution status "success"',
						result.code === 0 && run.status === 'success',
						() =>
							`exit ${result.code}, status ${run.status}: ${JSON.stringify(run.data.resultData.error ?? {}).slice(0, 1500)}`,
					);
					answers.push(
						run.data.resultData.runData['AI Agent']?.[0]?.data?.main?.[0]?.[0]?.json.output,
					);
				}
			},
		);
		if (!answers.length) throw new Error('the agent did not run: stopping');

		await checks.group('What the model saw and did', async () => {
			const modelRequests = fake.requests.filter((r) => r.conversation);
			const tools = checkSchema(checks, modelRequests, toolNames);
			await writeFile(
				path.join(n8n.userFolder, 'tool-schema.json'),
				`${JSON.stringify(tools, null, 2)}\n`,
			);
			console.log(
				`    (saved to ${path.join(n8n.userFolder, 'tool-schema.json')}; API used: ${[...new Set(modelRequests.map((r) => r.conversation.api))].join(', ')})`,
			);
			checks.equal(
				'the model was asked 4 + 3 + 3 times (list, [pause by title → error], act, answer)',
				modelRequests.length,
				10,
			);
			checks.equal(
				'Responses API for the first two runs, Chat Completions for the last',
				modelRequests.map((r) => r.conversation.api),
				[...Array(7).fill('responses'), ...Array(3).fill('chat')],
			);
			checks.equal(
				'no model request failed',
				modelRequests.filter((r) => r.error).map((r) => r.error),
				[],
			);
			const calls = modelRequests
				.filter((r) => r.answer?.toolCall)
				.map((r) => `${r.answer.toolCall.name} ${JSON.stringify(r.answer.toolCall.args)}`);
			console.log(`    tool calls: ${calls.join('; ')}`);
			const results = modelRequests.flatMap((r) => r.conversation.steps);
			checks.ok(
				'every tool result came back to the model',
				results.length > 0 && results.every((step) => step.output),
				JSON.stringify(results).slice(0, 800),
			);
			const titleError = modelRequests.find(
				(r) => r.conversation.steps.length === 2 && /pause/i.test(r.conversation.task),
			)?.conversation.steps[1];
			console.log(`    the pause tool, given a title: ${titleError?.output.slice(0, 300)}`);
			checks.ok(
				'a title as "Installation" comes back as an error that asks for the ID (nothing sent to the service)',
				/^Installation must be a positive whole number, got "Globex[^"]*": give its ID \(e.g. 5001\), not its name$/.test(
					objectsIn(titleError?.output ?? '').find((o) => o.error)?.error ?? '',
				),
				JSON.stringify(titleError),
			);
			checks.ok(
				'no access token in anything sent to the model',
				!JSON.stringify(fake.requests).includes(emulator.token),
			);
		});

		await checks.group('The service and the answers', async () => {
			const calls = (await emulator.requests()).map(
				(r) => `${r.method} ${r.path}${r.status >= 400 ? ` → ${r.status}` : ''}`,
			);
			console.log(`    emulator log: ${calls.join(', ')}`);
			checks.equal(
				'exactly one PAUSE, for Globex',
				calls.filter((c) => c.startsWith('PAUSE')),
				[`PAUSE /solution/installation/${ids.globex}`],
			);
			checks.equal(
				`ACME's field values were read, once per run (GET /solution/installation/${ids.acme})`,
				calls.filter((c) => c === `GET /solution/installation/${ids.acme}`).length,
				2,
			);
			checks.equal(
				'nothing was changed but that (no PLAY, PUT, POST)',
				calls.filter((c) => /^(PLAY|PUT|POST)/.test(c)),
				[],
			);
			checks.equal(
				'no call failed',
				calls.filter((c) => c.includes('→')),
				[],
			);
			const state = await emulator.state();
			const status = (id) => state.installations.find((i) => i.id === id)?.status;
			checks.equal(
				'emulator: Globex is paused, ACME still active',
				[status(ids.globex), status(ids.acme)],
				[0, 1],
			);
			console.log(`    answers: ${JSON.stringify(answers)}`);
			checks.equal(
				'answer 1: Globex paused',
				answers[0],
				`Paused "${CUSTOMERS.globex}" (installation ${ids.globex}); its status is now paused.`,
			);
			const subjectAnswer = `The email subject in ACME's installation (${ids.acme}) is "${ACME_SUBJECT}".`;
			checks.equal("answer 2: ACME's subject, read through the tool", answers[1], subjectAnswer);
			checks.equal('answer 2 again, through the Chat Completions API', answers[2], subjectAnswer);
		});
	} catch (error) {
		checks.ok('agent run', false, error instanceof Error ? error.stack : String(error));
	} finally {
		if (n8n && fake)
			await writeFile(
				path.join(n8n.userFolder, 'model-requests.json'),
				`${JSON.stringify(fake.requests, null, 2)}\n`,
			);
		await fake?.close();
		await emulator?.close();
		await killAll();
		if (n8n && process.env.N8N_E2E_KEEP !== '1' && !checks.failed)
			await rm(n8n.userFolder, { recursive: true, force: true });
		else if (n8n) console.log(`\nn8n folder kept: ${n8n.userFolder}`);
	}
	timings['total (s)'] = seconds(Date.now() - runStarted);
	console.log(
		`\ntimings: ${Object.entries(timings)
			.map(([k, v]) => `${k} ${v}`)
			.join(', ')}`,
	);
	console.log(checks.summary());
	process.exitCode = checks.failed ? 1 : 0;
}

await main();
