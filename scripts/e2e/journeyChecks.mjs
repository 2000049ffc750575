// The onboarding journey through `n8n execute` and the polling trigger in a running n8n: the checks
// run.mjs and compat.mjs share. `timings`: seconds per phase, which run.mjs prints at the end.
import { waitFor } from './lib/proc.mjs';
import { WORKFLOWS } from './lib/setup.mjs';

const TRIGGER_TIMEOUT_MS = 150_000; // "every minute" polls: at most ~60 s after the change, plus slack
/** Seconds per phase, printed at the end. */
export const timings = {};

// ---- run data helpers -------------------------------------------------------------------

/** Output items (json) of a node's first run in n8n's run data. */
function outputOf(runData, nodeName) {
	return (runData[nodeName]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
}

const fieldValue = (records, code) =>
	records.flatMap((record) => record.data ?? []).find((field) => field.name === code)?.value;

// ---- 4. the onboarding journey through `n8n execute` ----------------------------------------

export async function checkOnboarding(checks, n8n, emulator, workflow) {
	const result = await checks.step('n8n execute runs "customer onboarding journey"', async () => {
		const executed = await n8n.execute(WORKFLOWS.onboarding.id);
		if (!executed.run)
			throw new Error(
				`no run JSON in the output (exit ${executed.code})\n${executed.output.slice(-3000)}`,
			);
		return executed;
	});
	timings['execute onboarding (s)'] = Math.round(result.ms / 100) / 10;
	const { run } = result;
	const runData = run.data.resultData.runData;
	checks.ok(
		'exit code 0, execution status "success"',
		n8n.succeeded(result),
		() =>
			`exit ${result.code}, status ${run.status}: ${JSON.stringify(run.data.resultData.error ?? {}).slice(0, 800)}`,
	);
	const names = workflow.nodes.map((node) => node.name);
	const ran = names.filter((name) => runData[name]?.[0]?.executionStatus === 'success');
	checks.equal(`all ${names.length} nodes ran successfully`, ran, names);

	const solutions = outputOf(runData, 'List solutions').map((s) => s.id);
	checks.equal('List solutions → the 4 published solutions', solutions, [101, 102, 103, 105]);
	checks.ok(
		'Read connection settings → steps of solution 101',
		outputOf(runData, 'Read connection settings')[0]?.steps?.some((s) => s.id === 'crm'),
	);
	const installed = outputOf(runData, 'Install for Acme')[0] ?? {};
	checks.ok(
		'Install for Acme → a new installation, paused',
		Number(installed.id) >= 6001 && installed.status === 0,
		JSON.stringify(installed),
	);
	checks.equal('Start → status 1 (PLAY)', outputOf(runData, 'Start')[0]?.status, 1);
	checks.equal('Pause → status 0 (PAUSE)', outputOf(runData, 'Pause')[0]?.status, 0);
	checks.equal(
		'Change email subject → updated',
		outputOf(runData, 'Change email subject')[0]?.updated,
		{ subject: 'Welcome to Acme!' },
	);
	checks.equal(
		'Read changed values → the new subject',
		fieldValue(outputOf(runData, 'Read changed values'), 'subject'),
		'Welcome to Acme!',
	);
	checks.equal('Start again → status 1', outputOf(runData, 'Start again')[0]?.status, 1);
	checks.ok(
		'Read partner schema → fields of partner 201',
		outputOf(runData, 'Read partner schema')[0]?.fields?.length === 3,
	);
	const connection = outputOf(runData, 'Create partner connection')[0] ?? {};
	checks.ok(
		'Create partner connection → a connection of partner 201',
		connection.partnerId === 201 && connection.id !== undefined,
		JSON.stringify(connection),
	);

	await checkServiceSide(checks, emulator, installed.id);
}

/** The service's side of the journey: what the emulator now holds and which calls reached it. */
async function checkServiceSide(checks, emulator, installedId) {
	const state = await emulator.state();
	const installation = state.installations.find((i) => i.id === installedId);
	checks.ok(
		`emulator: installation ${installedId} exists and is active`,
		installation?.status === 1,
		JSON.stringify(installation),
	);
	const subject = state.bundleData
		.filter((record) => installation?.bundleIds?.includes(record.bundleId))
		.flatMap((record) => record.fields)
		.find((field) => field.name === 'subject')?.value;
	checks.equal('emulator: the subject field was changed', subject, 'Welcome to Acme!');
	checks.ok(
		'emulator: the partner connection was created',
		state.credentials.some((c) => c.partnerId === 201 && c.title === 'Acme CRM connection'),
	);
	const calls = (await emulator.requests()).map((r) => `${r.method} ${r.path}`);
	const own = `/solution/installation/${installedId}`;
	checks.ok(
		'emulator: n8n sent the custom methods PLAY and PAUSE',
		calls.includes(`PLAY ${own}`) && calls.includes(`PAUSE ${own}`),
		calls.join('\n'),
	);
}

// ---- 5. the polling trigger in a running n8n ----------------------------------------------

/** Trigger events seen so far in the workflow's executions: `[{ event, installationId, … }]`. */
async function triggerEvents(n8n, workflowId, triggerName, nextName) {
	const seen = [];
	for (const summary of await n8n.executions(workflowId)) {
		if (summary.status !== 'success') continue;
		const execution = await n8n.execution(summary.id);
		const runData = execution.data.resultData.runData;
		const details = outputOf(runData, nextName);
		for (const event of outputOf(runData, triggerName))
			seen.push({ ...event, detail: details.find((d) => d.id === event.installationId) });
	}
	return seen;
}

/** Two changes, as an end user would make them elsewhere: 5002 started, one installation created (given). */
async function changeInstallations(emulator) {
	await emulator.call('PLAY', '/solution/installation/5002');
	return await emulator.call('POST', '/solution/101/installation', {
		title: 'Created by the e2e test',
		templateIds: [1011],
		credentialData: {
			crm: 'hubspot',
			hubspotPipeline: 'sales',
			hubspotStage: 'new',
			mailer: 'mailchimp',
		},
	});
}

/** n8n started with the trigger workflow active, and its first poll (the baseline) seen. */
async function startWithTrigger(checks, n8n, emulator) {
	// The trigger's first poll only records a baseline: start from the fixtures.
	await emulator.reset();
	// n8n 2.0 publishes only a saved version, which its CLI import does not make: activated there
	// once n8n runs, as the editor's toggle does (n8n.activate).
	const publishLater = n8n.importMakesNoVersion;
	if (!publishLater)
		await checks.step('publish:workflow activates the trigger workflow', () =>
			n8n.publishCli(WORKFLOWS.trigger.id),
		);
	timings['n8n start (s)'] =
		Math.round((await checks.step('n8n starts with our package loaded', () => n8n.start())) / 100) /
		10;
	await checks.step('owner account set up through /rest/owner/setup', () => n8n.loginOwner());
	if (publishLater)
		await checks.step('the trigger workflow activated (REST)', () =>
			n8n.activate(WORKFLOWS.trigger.id),
		);

	const listCalls = async () =>
		(await emulator.requests()).filter(
			(r) => r.method === 'GET' && r.path === '/solution/installation',
		).length;
	await checks.step('activation polls the service once (the baseline)', () =>
		waitFor("the trigger's first poll", async () => (await listCalls()) >= 1, {
			timeoutMs: 60_000,
		}),
	);
}

export async function checkTrigger(checks, n8n, emulator, workflow) {
	const triggerName = workflow.nodes.find((node) =>
		node.type.endsWith('albatoSolutionsTrigger'),
	).name;
	const nextName = workflow.nodes.find((node) => node.type.endsWith('.albatoSolutions')).name;

	await startWithTrigger(checks, n8n, emulator);

	// Two changes, as an end user would make them elsewhere.
	const started = Date.now();
	const created = await changeInstallations(emulator);
	console.log(
		`    changed the emulator (PLAY 5002, installed ${created.id}); waiting for the next poll (every minute)…`,
	);

	const events = await checks.step('the trigger fires within one poll interval', () =>
		waitFor(
			'executions with both events',
			async () => {
				const seen = await triggerEvents(n8n, WORKFLOWS.trigger.id, triggerName, nextName);
				const started5002 = seen.find(
					(e) => e.event === 'installationStarted' && e.installationId === 5002,
				);
				const createdNew = seen.find(
					(e) => e.event === 'installationCreated' && e.installationId === created.id,
				);
				return started5002 && createdNew ? { started5002, createdNew, seen } : undefined;
			},
			{ timeoutMs: TRIGGER_TIMEOUT_MS, intervalMs: 3000 },
		),
	);
	timings['trigger fired after (s)'] = Math.round((Date.now() - started) / 100) / 10;
	checks.ok(
		'installationStarted for 5002 (paused → active)',
		events.started5002.previousStatus === 0 && events.started5002.status === 1,
		JSON.stringify(events.started5002),
	);
	checks.equal(
		`installationCreated for ${created.id}`,
		events.createdNew.title,
		'Created by the e2e test',
	);
	checks.ok(
		`next node read installation ${created.id} with its automations`,
		Object.keys(events.createdNew.detail?.bundles ?? {}).length > 0,
		JSON.stringify(events.createdNew.detail),
	);
	checks.equal('no other events (nothing fired twice)', events.seen.length, 2);
	const calls = (await emulator.requests()).map((r) => `${r.method} ${r.path}`);
	checks.ok(
		'emulator: n8n read the new installation',
		calls.includes(`GET /solution/installation/${created.id}`),
		calls.join('\n'),
	);
}
