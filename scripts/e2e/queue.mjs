// `npm run e2e:queue`: our package in n8n's queue mode, the way a partner with many customers runs it.
//
//  - Debian's redis-server and PostgreSQL (apt-get installs them when missing), as child processes
//    on loopback with temporary data (lib/services.mjs);
//  - n8n main (`n8n start`, EXECUTIONS_MODE=queue, Postgres): editor, REST API, triggers;
//  - 2 workers (`n8n worker --concurrency=5`): every execution;
//  - 1 webhook processor (`n8n webhook`): production webhooks (main has them turned off).
//
// Then: 50 concurrent webhook calls onboard 50 customers; 3 concurrent executions change the same
// field on the same 2 active installations ("Pause, Update, Then Start Again"); 50 more concurrent
// webhook calls onboard 50 customers in partner mode (examples/new-customer-onboarding: end user,
// installation, start, with the Albato Partner API credential and the workers' token caches); the
// polling trigger, active throughout, must report each of the first 50 installations exactly once;
// the fleet-watch example's Run → Get New, started twice at once over 20 customers in 3 rounds with
// runs injected before each, must return each run exactly once across both executions
// (queueWatch.mjs: the overlap guarantee of docs/runs.md); each onboarding delivered twice at once
// (queueTwice.mjs), and with the list lagging beyond the Lost Answer Check then one later Ensure
// each (queueRace.mjs: no customer left with two active copies).
// Checks the emulator's state and request log, the executions in Postgres and which worker ran
// each, and that no token reached Postgres or any n8n log.
//
// Ends with `N passed, N failed`; exit code 1 on any failure. Every process is stopped by pid.
// Env: N8N_E2E_KEEP=1 keeps the temporary folders; QUEUE_E2E_CUSTOMERS (50), QUEUE_E2E_CONCURRENCY (5).

import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Checks } from './lib/checks.mjs';
import { Emulator } from './lib/emulator.mjs';
import { ensureN8n, N8N_VERSION } from './lib/install.mjs';
import { N8nInstance } from './lib/n8n.mjs';
import { freePort, killAll, stop, waitFor } from './lib/proc.mjs';
import { ensureServices, servicesDir, startPostgres, startRedis } from './lib/services.mjs';
import { queueEnv, startRole } from './lib/queueMode.mjs';
import { CREDENTIAL, readExample } from './lib/setup.mjs';
import {
	ADD_USER,
	callsPerUser,
	checkWebhookRefused,
	enableWebhook,
	holdsToken,
	PARTNER_CREDENTIAL,
	TOKEN_CALL,
	WEBHOOK_HEADERS,
	WEBHOOK_SECRET,
} from './partner.mjs';
import { checkTwice, TWICE, twiceWorkflows } from './queueTwice.mjs';
import {
	checkOverlappingIncidents,
	checkOverlappingSweeps,
	WATCH,
	WATCH_INCIDENTS,
	WATCH_CUSTOMERS,
	WATCH_ROUNDS,
	watchWorkflow,
} from './queueWatch.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CUSTOMERS = Number(process.env.QUEUE_E2E_CUSTOMERS) || 50;
const WORKER_CONCURRENCY = Number(process.env.QUEUE_E2E_CONCURRENCY) || 5;
const WORKERS = 2;

/**
 * The onboarding workflow under test and how to call it. To test another onboarding workflow
 * (e.g. the partner-credential one), change `file`, `request` and `expectedTitle` here.
 */
const ONBOARDING = {
	id: 'QueueOnboarding1',
	file: 'scripts/e2e/fixtures/queue-onboarding.workflow.json',
	webhookPath: 'albato-queue-onboard',
	request: (i) => ({ customer: customerName(i) }),
	expectedTitle: (i) => `${customerName(i)} – lead sync`,
	/** What every new installation must look like in the emulator. */
	expected: { solutionId: 101, status: 1, templateIds: [1011], userId: 'user-1' },
};
/** Partner mode: the example (it references PARTNER_CREDENTIAL). */
const PARTNER = {
	id: 'QueuePartnerOnb1',
	file: 'examples/new-customer-onboarding.workflow.json',
	customer: (i) => ({
		customerId: `queue-partner-${String(i + 1).padStart(3, '0')}`,
		company: `Partner Customer ${String(i + 1).padStart(3, '0')}`,
	}),
};
const UPDATE = {
	id: 'QueueUpdateField',
	file: 'scripts/e2e/fixtures/queue-update.workflow.json',
	webhookPath: 'albato-queue-update',
};
const TRIGGER = { id: 'QueueTriggerWf01' };
const customerName = (i) => `Queue Customer ${String(i + 1).padStart(3, '0')}`;

const timings = {};
const seconds = (ms) => Math.round(ms / 100) / 10;
async function timed(name, fn) {
	const started = Date.now();
	try {
		return await fn();
	} finally {
		timings[name] = seconds(Date.now() - started);
	}
}

// ---- the n8n processes ---------------------------------------------------------------------

async function readWorkflow(file, id) {
	return { ...JSON.parse(await readFile(path.join(repoRoot, file), 'utf8')), id };
}

/**
 * The trigger example (every minute, n8n's shortest poll), for "created" only, so that each event
 * is countable while the other workflows pause and start installations.
 */
async function triggerWorkflow() {
	const workflow = await readExample(repoRoot, 'trigger');
	const trigger = workflow.nodes.find((node) => node.type.endsWith('albatoSolutionsTrigger'));
	trigger.parameters.events = ['installationCreated'];
	return { ...workflow, id: TRIGGER.id, name: 'Queue e2e – installation created' };
}

// ---- checks --------------------------------------------------------------------------------

async function post(url, body, headers = { 'content-type': 'application/json' }) {
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

const subjectOf = (state, installation) =>
	state.bundleData
		.filter((record) => installation.bundleIds.includes(record.bundleId))
		.flatMap((record) => record.fields)
		.find((field) => field.name === 'subject')?.value;

async function checkOnboarding(checks, webhookBase, emulator) {
	const url = `${webhookBase}/webhook/${ONBOARDING.webhookPath}`;
	const started = Date.now();
	const responses = await Promise.all(
		Array.from({ length: CUSTOMERS }, (_, i) => post(url, ONBOARDING.request(i))),
	);
	timings[`${CUSTOMERS} webhook calls (s)`] = seconds(Date.now() - started);
	const bad = responses
		.map((r, i) => ({ i, r }))
		.filter(({ r }) => r.status !== 200 || r.json?.status !== 1);
	checks.ok(
		`${CUSTOMERS} concurrent webhook calls → ${CUSTOMERS} × 200 with a started installation`,
		bad.length === 0,
		() =>
			bad
				.slice(0, 5)
				.map(({ i, r }) => `#${i}: ${r.status} ${r.text.slice(0, 300)}`)
				.join('\n'),
	);
	const answered = responses.map((r) => r.json?.title);
	checks.equal(
		"each call answered with its own customer's installation",
		answered,
		Array.from({ length: CUSTOMERS }, (_, i) => ONBOARDING.expectedTitle(i)),
	);

	const state = await emulator.state();
	const titles = new Set(Array.from({ length: CUSTOMERS }, (_, i) => ONBOARDING.expectedTitle(i)));
	const created = state.installations.filter((i) => titles.has(i.title));
	checks.equal(
		`emulator: exactly ${CUSTOMERS} new installations, one per customer`,
		created.length,
		CUSTOMERS,
	);
	checks.equal(
		'emulator: no title twice',
		new Set(created.map((i) => i.title)).size,
		created.length,
	);
	const others = state.installations
		.filter((i) => !titles.has(i.title))
		.map((i) => i.id)
		.sort();
	checks.equal('emulator: nothing else was installed', others, [5001, 5002, 5003]);
	const wrong = created.filter((i) => {
		const templates = state.bundles
			.filter((b) => i.bundleIds.includes(b.id))
			.map((b) => b.templateId);
		return (
			i.solutionId !== ONBOARDING.expected.solutionId ||
			i.status !== ONBOARDING.expected.status ||
			i.userId !== ONBOARDING.expected.userId ||
			JSON.stringify(templates) !== JSON.stringify(ONBOARDING.expected.templateIds) ||
			JSON.stringify(i.credentialData) !==
				JSON.stringify({
					crm: 'hubspot',
					hubspotPipeline: 'sales',
					hubspotStage: 'new',
					mailer: 'mailchimp',
				})
		);
	});
	checks.ok(
		'emulator: every one active (1), solution 101, template 1011, user-1, the connection settings given',
		wrong.length === 0,
		() => JSON.stringify(wrong.slice(0, 3)),
	);
	const subjects = [...new Set(created.map((i) => subjectOf(state, i)))];
	checks.equal('emulator: field values are the template\'s (subject "Welcome aboard")', subjects, [
		'Welcome aboard',
	]);
	const responseIds = responses.map((r) => r.json?.id).sort();
	checks.equal(
		'the ids answered are the ids created',
		responseIds,
		created.map((i) => i.id).sort(),
	);

	const calls = await emulator.requests();
	const installs = calls.filter(
		(c) => c.method === 'POST' && c.path === '/solution/101/installation',
	);
	checks.equal(`emulator: ${CUSTOMERS} install calls (none repeated)`, installs.length, CUSTOMERS);
	const plays = calls.filter((c) => c.method === 'PLAY').map((c) => c.path);
	checks.equal(
		`emulator: ${CUSTOMERS} PLAY calls, one per new installation`,
		new Set(plays).size === CUSTOMERS && plays.length === CUSTOMERS,
		true,
	);
	return created.sort((a, b) => a.id - b.id);
}

async function checkOverlappingUpdates(checks, webhookBase, emulator, installations) {
	const state = await emulator.state();
	const targets = installations.slice(0, 2).map((installation) => {
		const record = state.bundleData.find(
			(r) =>
				installation.bundleIds.includes(r.bundleId) && r.fields.some((f) => f.name === 'subject'),
		);
		return { installationId: installation.id, bundleId: record.bundleId, stepId: record.id };
	});
	const subjects = ['Subject from run A', 'Subject from run B', 'Subject from run C'];
	await emulator.control('DELETE', '/requests');
	// 600 ms per installation call (read, pause, update, start), like a distant service, so each
	// execution takes about 5 s: wide enough that the three overlap even when a loaded machine's
	// workers pick them up a second or two apart. The three first reads of the first installation
	// answer after 600, 1500 and 2100 ms: the second and third execution then read it while the
	// first one has it paused, and update it around the time the first one starts it again.
	// (Without this the three run in lockstep, or one after the other, and never collide.)
	const first = targets[0].installationId;
	for (const delayMs of [600, 1500, 2100])
		await emulator.control('POST', '/faults', {
			method: 'GET',
			path: `/solution/installation/${first}`,
			delayMs,
		});
	await emulator.control('POST', '/faults', {
		path: '^/(solution/installation|bundle/data)/\\d+$',
		regex: true,
		times: 1000,
		delayMs: 600,
	});
	const url = `${webhookBase}/webhook/${UPDATE.webhookPath}`;
	const responses = await Promise.all(subjects.map((subject) => post(url, { subject, targets })));
	await emulator.control('DELETE', '/faults');
	const failed = responses.filter((r) => r.status !== 200);
	checks.ok(
		'3 overlapping executions, each updating the same 2 active installations, all succeed',
		failed.length === 0,
		() => failed.map((r) => `${r.status} ${r.text.slice(0, 400)}`).join('\n'),
	);
	const after = await emulator.state();
	for (const target of targets) {
		const installation = after.installations.find((i) => i.id === target.installationId);
		checks.equal(
			`installation ${target.installationId} is active again (not left paused)`,
			installation.status,
			1,
		);
		const subject = subjectOf(after, installation);
		checks.ok(
			`installation ${target.installationId}: subject is one of the 3 values`,
			subjects.includes(subject),
			`got ${JSON.stringify(subject)}`,
		);
	}
	const calls = (await emulator.requests()).filter((c) => c.user);
	// The order the service saw: shows how the three executions interleaved.
	const short = { GET: 'get', PAUSE: 'pause', PUT: 'put', PLAY: 'play' };
	console.log(
		`    service saw: ${calls.map((c) => `${short[c.method] ?? c.method} ${c.path.match(/\d+$/)?.[0] ?? c.path}${c.status >= 400 ? `→${c.status}` : ''}`).join(', ')}`,
	);
	const reads = calls
		.map((c, i) => (c.method === 'GET' && c.path.endsWith(`/${first}`) ? i : -1))
		.filter((i) => i >= 0);
	const firstPlay = calls.findIndex((c) => c.method === 'PLAY' && c.path.endsWith(`/${first}`));
	checks.ok(
		'the executions overlapped (a second read of the installation before the first start)',
		reads.length > 1 && firstPlay > reads[1],
		'they ran one after the other: the test proves nothing about overlap',
	);
	const puts = calls.filter((c) => c.method === 'PUT' && c.status < 400);
	checks.ok(
		'emulator: at least 6 updates accepted (3 executions × 2 installations)',
		puts.length >= 6,
		`${puts.length} accepted`,
	);
	// A 422 on an update (the installation was active) is the collision itself; an overlap-safe
	// update may meet it and recover, so only other refusals are failures here.
	const rejected = calls
		.filter((c) => c.status >= 400 && !(c.method === 'PUT' && c.status === 422))
		.map((c) => `${c.method} ${c.path} ${c.status}`);
	checks.equal('emulator: no other call was refused', rejected, []);
}

async function checkPartnerOnboarding(checks, webhookBase, emulator, partner) {
	await emulator.control('DELETE', '/requests');
	const customers = Array.from({ length: CUSTOMERS }, (_, i) => PARTNER.customer(i));
	const webhookPath = JSON.parse(
		await readFile(path.join(repoRoot, PARTNER.file), 'utf8'),
	).nodes.find((node) => node.type === 'n8n-nodes-base.webhook').parameters.path;
	const started = Date.now();
	const responses = await Promise.all(
		customers.map((customer) =>
			post(`${webhookBase}/webhook/${webhookPath}`, customer, WEBHOOK_HEADERS),
		),
	);
	timings[`${CUSTOMERS} partner webhook calls (s)`] = seconds(Date.now() - started);
	const bad = responses
		.map((r, i) => ({ i, r }))
		.filter(
			({ r, i }) =>
				r.status !== 200 ||
				r.json?.customerId !== customers[i].customerId ||
				!(Number(r.json?.installationId) > 0) ||
				r.json?.status !== 1,
		);
	checks.ok(
		`${CUSTOMERS} concurrent webhook calls → each answers with its own customer and a started installation`,
		bad.length === 0,
		() =>
			bad
				.slice(0, 5)
				.map(({ i, r }) => `#${i}: ${r.status} ${r.text.slice(0, 300)}`)
				.join('\n'),
	);

	const state = await emulator.state();
	const wrong = customers.filter((customer, i) => {
		const owned = state.installations.filter(
			(inst) => inst.userId === `${partner.name}:${customer.customerId}`,
		);
		return (
			!state.endUsers.some((user) => user.id === customer.customerId) ||
			owned.length !== 1 ||
			owned[0].id !== responses[i].json?.installationId ||
			owned[0].status !== 1 ||
			owned[0].title !== `${customer.company} – lead sync` ||
			owned[0].solutionId !== 101
		);
	});
	checks.ok(
		`emulator: each of the ${CUSTOMERS} customers is an end user owning exactly one started installation, its own`,
		wrong.length === 0,
		() =>
			wrong
				.slice(0, 3)
				.map(
					(c) =>
						`${c.customerId}: ${JSON.stringify(state.installations.filter((inst) => inst.userId === `${partner.name}:${c.customerId}`))}`,
				)
				.join('\n'),
	);

	const requests = await emulator.requests();
	const addUsers = callsPerUser(requests, ADD_USER);
	const tokenCalls = callsPerUser(requests, TOKEN_CALL);
	checks.equal(
		'emulator: exactly one add-user call per customer, none for anyone else',
		[customers.every((c) => addUsers[c.customerId] === 1), Object.keys(addUsers).length],
		[true, CUSTOMERS],
	);
	checks.ok(
		'emulator: at most one token call per customer',
		Object.values(tokenCalls).every((n) => n <= 1),
		JSON.stringify(tokenCalls),
	);
	console.log(
		`    token calls: ${Object.values(tokenCalls).reduce((a, b) => a + b, 0)} for ${CUSTOMERS} customers`,
	);
	const asSomeoneElse = requests.filter(
		(r) =>
			(r.method === 'PLAY' || (r.method === 'POST' && r.path === '/solution/101/installation')) &&
			!customers.some((c) => r.user === `${partner.name}:${c.customerId}`),
	);
	const installs = requests.filter(
		(r) => r.method === 'POST' && r.path === '/solution/101/installation',
	);
	checks.ok(
		`emulator: ${CUSTOMERS} installs and ${CUSTOMERS} PLAYs, each sent as a customer of this run`,
		installs.length === CUSTOMERS &&
			requests.filter((r) => r.method === 'PLAY').length === CUSTOMERS &&
			asSomeoneElse.length === 0,
		() => JSON.stringify(asSomeoneElse.slice(0, 3)),
	);
	const refused = requests
		.filter((r) => r.status >= 400)
		.map((r) => `${r.method} ${r.path} ${r.status}`);
	checks.equal(
		'emulator: no call was refused (no 401: tokens stayed valid across workers)',
		refused,
		[],
	);
	// The installation trigger stays active throughout (its group checks each event once): its
	// minute polls read installations as the account's own user, never as a partner customer.
	const triggerPoll = (r) => r.method === 'GET' && r.user === 'user-1';
	await checkWebhookRefused(
		checks,
		emulator,
		`${webhookBase}/webhook/${JSON.parse(await readFile(path.join(repoRoot, PARTNER.file), 'utf8')).nodes.find((node) => node.type === 'n8n-nodes-base.webhook').parameters.path}`,
		triggerPoll,
	);
}

/** No master token, no end-user token (JWT or permanent) in what n8n stored or logged. */
async function checkNoTokens(checks, postgres, logFiles, partner, emulator) {
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

async function checkTrigger(checks, n8n, installations) {
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

async function checkExecutions(checks, postgres, workers, watchSweeps) {
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

// ---- main ----------------------------------------------------------------------------------

async function main() {
	const checks = new Checks();
	const runStarted = Date.now();
	const cleanup = [];
	let folders = [];
	try {
		const install = await timed('n8n set-up (s)', () => ensureN8n());
		const services = await timed('redis + postgres packages (s)', () => ensureServices());
		console.log(`redis ${services.versions.redis}, postgres ${services.versions.postgres}`);
		const dir = await servicesDir();
		folders.push(dir);
		const { redis, postgres } = await timed('redis + postgres start (s)', async () => ({
			redis: await startRedis(path.join(dir, 'redis'), { logFile: path.join(dir, 'redis.log') }),
			postgres: await startPostgres(services.postgresBin, dir, {
				logFile: path.join(dir, 'postgres.log'),
			}),
		}));
		cleanup.push(
			() => redis.close(),
			() => postgres.close(),
		);
		const emulator = await Emulator.start(repoRoot, { logFile: path.join(dir, 'emulator.log') });
		cleanup.push(() => emulator.close());
		const partner = await emulator.control('GET', '/partner');
		const n8n = await N8nInstance.create(install, repoRoot, { env: queueEnv(redis, postgres) });
		folders.push(n8n.userFolder);
		cleanup.push(() => n8n.stop());
		console.log(
			`redis :${redis.port}, postgres :${postgres.port}, emulator ${emulator.baseUrl}, n8n ${n8n.baseUrl}; folders ${dir}, ${n8n.userFolder}`,
		);

		const roles = [];
		let webhookBase;
		await checks.group(
			`n8n ${N8N_VERSION} in queue mode: main, ${WORKERS} workers, webhook processor`,
			async () => {
				await checks.step(
					'import the credentials and 9 workflows, publish them (n8n CLI on Postgres)',
					() =>
						timed('imports (s)', async () => {
							await n8n.importCredentials([
								WEBHOOK_SECRET,
								{ ...CREDENTIAL, data: { baseUrl: emulator.baseUrl, accessToken: emulator.token } },
								{
									...PARTNER_CREDENTIAL,
									data: {
										baseUrl: emulator.baseUrl,
										partnerName: partner.name,
										masterToken: partner.masterToken,
									},
								},
							]);
							// One import for all (each CLI call starts n8n: seconds), then one publish each.
							const workflows = [
								await readWorkflow(ONBOARDING.file, ONBOARDING.id),
								await readWorkflow(UPDATE.file, UPDATE.id),
								enableWebhook(await readWorkflow(PARTNER.file, PARTNER.id)),
								...(await twiceWorkflows(readWorkflow)),
								await triggerWorkflow(),
								await watchWorkflow(repoRoot),
								await watchWorkflow(repoRoot, { incidents: true }),
							];
							const folder = path.join(n8n.userFolder, 'import');
							await mkdir(folder);
							for (const workflow of workflows)
								await writeFile(path.join(folder, `${workflow.id}.json`), JSON.stringify(workflow));
							await n8n.cli(['import:workflow', '--separate', `--input=${folder}`]);
							for (const workflow of workflows)
								await n8n.cli(['publish:workflow', `--id=${workflow.id}`]);
						}),
				);
				await checks.step('main starts (EXECUTIONS_MODE=queue, Postgres, Redis)', () =>
					timed('main start (s)', () => n8n.start()),
				);
				await n8n.loginOwner();
				const webhookPort = await freePort();
				await checks.step(
					`${WORKERS} workers (concurrency ${WORKER_CONCURRENCY} each) and the webhook processor start`,
					() =>
						timed('workers + webhook start (s)', async () => {
							const starting = Array.from({ length: WORKERS }, (_, i) =>
								startRole(
									n8n,
									`worker-${i + 1}`,
									['worker', `--concurrency=${WORKER_CONCURRENCY}`],
									/n8n worker is now ready/i,
								),
							);
							starting.push(
								startRole(n8n, 'webhook', ['webhook'], /Webhook listener waiting for requests/i, {
									N8N_PORT: String(webhookPort),
								}),
							);
							const started = await Promise.allSettled(starting);
							for (const result of started)
								if (result.status === 'fulfilled') cleanup.push(() => stop(result.value.child));
							const failed = started.find((result) => result.status === 'rejected');
							if (failed) throw failed.reason;
							roles.push(...started.map((result) => result.value));
						}),
				);
				webhookBase = `http://127.0.0.1:${webhookPort}`;
			},
		);
		const workers = roles.slice(0, WORKERS);
		if (roles.length < WORKERS + 1 || !webhookBase)
			throw new Error('the queue-mode setup did not start: stopping');

		let installations = [];
		await checks.group(
			`Onboarding: ${CUSTOMERS} customers through the webhook at once`,
			async () => {
				installations = await timed('onboarding (s)', () =>
					checkOnboarding(checks, webhookBase, emulator),
				);
			},
		);
		await checks.group('Overlap: 3 executions update the same 2 installations at once', () =>
			timed('overlap (s)', () =>
				checkOverlappingUpdates(checks, webhookBase, emulator, installations),
			),
		);
		await checks.group(
			`Partner mode: ${CUSTOMERS} new customers (end user, installation, start) through the webhook at once`,
			() =>
				timed('partner onboarding (s)', () =>
					checkPartnerOnboarding(checks, webhookBase, emulator, partner),
				),
		);
		await checks.group('Trigger: active on main, each event once', () =>
			timed('trigger (s)', () => checkTrigger(checks, n8n, installations)),
		);
		const watchSweeps = { [WATCH.id]: 0, [WATCH_INCIDENTS.id]: 0 };
		const workerOf = async (id) => {
			for (const worker of workers)
				if ((await workerExecutions(worker)).includes(String(id))) return worker.name;
			return undefined;
		};
		let bundles;
		await checks.group(
			`Overlapping sweeps: Run → Get New over ${WATCH_CUSTOMERS} customers started twice at once, ${WATCH_ROUNDS} rounds`,
			() =>
				timed('overlapping sweeps (s)', async () => {
					const watched = await checkOverlappingSweeps(checks, {
						emulator,
						partner,
						n8n,
						webhookBase,
						post,
						workerOf,
					});
					watchSweeps[WATCH.id] = watched.sweeps;
					bundles = watched.bundles;
				}),
		);
		if (bundles)
			await checks.group(
				`Incidents in queue mode: the fleet-watch example over ${WATCH_CUSTOMERS} customers, two sweeps at once, while an automation of each fails and recovers`,
				() =>
					timed('overlapping incident sweeps (s)', async () => {
						watchSweeps[WATCH_INCIDENTS.id] = await checkOverlappingIncidents(checks, {
							emulator,
							n8n,
							webhookBase,
							post,
							workerOf,
							bundles,
						});
					}),
			);
		for (const kind of Object.keys(TWICE))
			await checks.group(TWICE[kind].group, () =>
				timed(`delivered twice, ${kind} (s)`, () =>
					checkTwice(checks, { webhookBase, emulator, post, postgres }, kind),
				),
			);
		await checks.group('Executions: all succeeded, spread over both workers', () =>
			checkExecutions(checks, postgres, workers, watchSweeps),
		);
		await checks.group('Secrets: no token stored or logged', () =>
			checkNoTokens(
				checks,
				postgres,
				[n8n.logFile, ...roles.map((role) => role.logFile)],
				partner,
				emulator,
			),
		);
		if (checks.failed) console.log(`\nlogs: ${n8n.userFolder}/n8n-*.log, ${dir}/*.log`);
	} catch (error) {
		checks.ok('queue-mode run', false, error instanceof Error ? error.stack : String(error));
	} finally {
		// Reverse order of start: n8n processes, then the emulator, Postgres and Redis.
		for (const close of cleanup.reverse())
			await close().catch((error) => console.log(`(stopping: ${error.message})`));
		await killAll();
		if (process.env.N8N_E2E_KEEP !== '1' && !checks.failed)
			for (const folder of folders) await rm(folder, { recursive: true, force: true });
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
