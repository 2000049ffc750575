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

import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { Checks } from './lib/checks.mjs';
import { Emulator } from './lib/emulator.mjs';
import { startFakeOpenAi } from './lib/fake-openai.mjs';
import { ensureN8n } from './lib/install.mjs';
import { N8nInstance } from './lib/n8n.mjs';
import { killAll } from './lib/proc.mjs';
import { CREDENTIAL } from './lib/setup.mjs';
import { checkSchema, decide, objectsIn } from './lib/agentModel.mjs';
import {
	ACME_SUBJECT,
	CUSTOMERS,
	OPENAI_CREDENTIAL,
	TASKS,
	agentWorkflow,
	prepareEmulator,
	repoRoot,
} from './lib/agentFixtures.mjs';

const timings = {};
const seconds = (ms) => Math.round(ms / 100) / 10;

/** Each task run once by n8n execute; gives the agent's answers. `run`: { checks, n8n, emulator, fake, ids }. */
async function runTasks({ checks, n8n, emulator, fake }, workflows) {
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
	return answers;
}

/** What the model was shown (the tool schema, saved beside n8n's folder) and what it did. */
async function checkModel({ checks, n8n, emulator, fake }, toolNames) {
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
}

/** What reached the service, and the agent's answers. */
async function checkService({ checks, emulator, ids }, answers) {
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
		const run = { checks, n8n, emulator, fake, ids };
		const answers = await runTasks(run, workflows);
		if (!answers.length) throw new Error('the agent did not run: stopping');
		await checkModel(run, toolNames);
		await checkService(run, answers);
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
