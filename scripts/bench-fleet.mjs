// `npm run bench:fleet [-- --customers 100,1000,10000 --out bench-fleet.json]`
//
// A partner's fleet jobs in the real n8n 2.41 in queue mode, at N customers:
//  - set-up: Redis, PostgreSQL, n8n main, 2 workers (concurrency 5) and a webhook processor, started
//    as `e2e:queue` starts them (scripts/e2e/lib); the emulator over HTTPS behind the loopback delay
//    proxy (150 ms round trip), seeded in one control call with N end users, each with 1 installation
//    of 2 automations (solution 101), field values and one run per automation;
//  - jobs, each one fan-out (examples/fleet-fanout.workflow.json: batches of `--batch` customers,
//    each POSTed to a batch webhook, so the webhook processor queues one execution per batch):
//      nightlyPause  Get Many (active) → Pause, in partner mode (examples/fleet-fanout-batch);
//      fleetChange   Ensure one field value on every customer (Canary Items 10, Stop After
//                    Failures 1% when the node has them);
//      fleetSweep    Run → Get New with Group Into Incidents, twice, failed runs injected before each;
//  - the nightly pause as one big execution (`--single` sizes), and under the emulator's rate limit
//    (20 requests at once for the whole fleet);
//  - faults at `--faults-at` customers: 1% invalid End User IDs and 1% whose calls fail (503, reset)
//    must fail alone; then a worker killed (SIGKILL) halfway through a fleet change, and a rerun.
// Figures per job: seconds (trigger to the last execution's stop, from Postgres), failed items (the
// error outputs in the stored run data), calls by kind and 429s (the emulator's request summary),
// token calls per customer, peak RSS of main, each worker and the webhook processor (VmHWM, reset
// before each job), stored execution data (bytes in execution_data) and executions per worker.
//
// Options: --customers, --out, --rtt (150), --batch (500), --single (100,1000; "none"),
// --in-flight (Items in Flight of every Albato node; default Auto), --jobs (a subset),
// --faults-at (the largest size ≤ 1,000; 0 for none), --no-rate-limit, --keep (keep the folders).
// Environment: BENCH_WORKER_NODE_OPTIONS (NODE_OPTIONS of the workers only, e.g.
// --max-old-space-size=1024); BENCH_WORKER_METRICS_PORT=P (worker-i serves n8n's /metrics on P+i,
// to read its heap and RSS while a job runs).

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Emulator } from './e2e/lib/emulator.mjs';
import { ensureN8n, N8N_VERSION } from './e2e/lib/install.mjs';
import { N8nInstance } from './e2e/lib/n8n.mjs';
import { freePort, killAll, startProcess, stop, waitFor } from './e2e/lib/proc.mjs';
import { queueEnv, startRole } from './e2e/lib/queueMode.mjs';
import { ensureServices, servicesDir, startPostgres, startRedis } from './e2e/lib/services.mjs';
import { HEADER_CREDENTIAL } from './e2e/lib/setup.mjs';
import {
	emptyResults,
	megabytes,
	parseSizes,
	roundSeconds,
	table,
	targetLines,
} from './lib/fleetReport.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsNode = path.join(repoRoot, 'node_modules', 'ts-node', 'dist', 'bin.js');

function arg(name, fallback) {
	const i = process.argv.indexOf(name);
	return i === -1 ? fallback : process.argv[i + 1];
}
const has = (name) => process.argv.includes(name);

const SIZES = parseSizes(arg('--customers', '100,1000,10000'));
const RTT = Number(arg('--rtt', 150));
const BATCH = Number(arg('--batch', 500));
const SINGLE =
	arg('--single', '100,1000') === 'none' ? [] : parseSizes(arg('--single', '100,1000'));
/** Items in Flight of every Albato node (0: Auto). */
const IN_FLIGHT = Number(arg('--in-flight', 0));
const FAULTS_AT = Number(arg('--faults-at', [...SIZES].reverse().find((n) => n <= 1000) ?? 0));
const RATE_LIMIT = !has('--no-rate-limit');
const OUT = path.resolve(arg('--out', 'bench-fleet.json'));
const ONLY = arg('--jobs', 'nightlyPause,fleetChange,fleetSweep').split(',');
const WORKERS = 2;
const WORKER_CONCURRENCY = 5;
const PARTNER_CREDENTIAL = { id: '2', name: 'Albato Partner (emulator)', type: 'albatoPartnerApi' };
const NODE_TYPE = 'n8n-nodes-albato-solutions.albatoSolutions';
const SPLIT = 'One item per customer';

// ---- the parent: a certificate, then this script again with the CA trusted (as bench-n8n.mjs) --------

async function parent() {
	const cert = JSON.parse(
		execFileSync(process.execPath, [tsNode, '--transpile-only', 'scripts/lib/tlsCert.ts'], {
			cwd: repoRoot,
			encoding: 'utf8',
		}),
	);
	try {
		const child = spawn(
			process.execPath,
			[fileURLToPath(import.meta.url), ...process.argv.slice(2)],
			{
				stdio: 'inherit',
				env: {
					...process.env,
					NODE_EXTRA_CA_CERTS: cert.caFile,
					BENCH_N8N_CERT: JSON.stringify(cert),
				},
			},
		);
		const stopChild = () => child.kill('SIGTERM');
		process.on('SIGINT', stopChild);
		process.on('SIGTERM', stopChild);
		process.exitCode = await new Promise((resolve) =>
			child.on('exit', (code) => resolve(code ?? 1)),
		);
	} finally {
		await rm(cert.dir, { recursive: true, force: true });
	}
}

// ---- the workflows -----------------------------------------------------------------------------------

/** Whether the built node has the rollout guard (Canary Items, Stop After Failures). */
function hasRolloutGuard() {
	const file = path.join(
		repoRoot,
		'dist',
		'nodes',
		'shared',
		'descriptions',
		'requestOptions.descriptions.js',
	);
	return existsSync(file) && readFileSync(file, 'utf8').includes('canaryItems');
}

const JOBS = {
	nightlyPause: { batchId: 'BenchBatPause001', fanId: 'BenchFanPause001' },
	fleetChange: { batchId: 'BenchBatChange01', fanId: 'BenchFanChange01' },
	fleetSweep: { batchId: 'BenchBatSweep001', fanId: 'BenchFanSweep001' },
};
const batchPath = (job) => `bench-batch-${job}`;
const fanoutPath = (job) => `bench-fanout-${job}`;

async function readExample(name) {
	return JSON.parse(await readFile(path.join(repoRoot, 'examples', name), 'utf8'));
}

const partnerNode = (name, parameters, position) => ({
	parameters: {
		authentication: 'partnerApi',
		...(IN_FLIGHT ? { requestOptions: { concurrency: IN_FLIGHT } } : {}),
		...parameters,
	},
	name,
	type: NODE_TYPE,
	typeVersion: 1,
	position,
	credentials: { albatoPartnerApi: { id: PARTNER_CREDENTIAL.id, name: PARTNER_CREDENTIAL.name } },
	onError: 'continueErrorOutput',
});

/** The Albato node(s) of each job's batch workflow, after the Split Out. */
function jobNodes(job, guard) {
	if (job === 'fleetChange')
		return [
			partnerNode(
				'Ensure',
				{
					endUserId: '={{ $json.customerId }}',
					resource: 'installation',
					operation: 'ensure',
					solutionId: { __rl: true, mode: 'id', value: '101' },
					title: '=Leads of {{ $json.customerId }}',
					connectionSettingsMode: 'json',
					credentialData:
						'{"crm": "hubspot", "hubspotPipeline": "sales", "hubspotStage": "new", "mailer": "mailchimp"}',
					templateIds: [1011, 1012],
					desiredFieldsMode: 'json',
					desiredFieldsJson:
						"={{ JSON.stringify([{ automation: 1011, step: 'Send welcome email', code: 'subject', value: $json.subject }]) }}",
					desiredStatus: 'active',
					requestOptions: {
						...(guard
							? {
									canaryItems: 10,
									stopAfterFailures: `={{ $('One batch').first().json.body.stopAfterFailures ?? '1%' }}`,
								}
							: {}),
						...(IN_FLIGHT ? { concurrency: IN_FLIGHT } : {}),
					},
				},
				[440, 200],
			),
		];
	if (job === 'fleetSweep')
		return [
			partnerNode(
				'New failures, as incidents',
				{
					endUserId: '={{ $json.customerId }}',
					resource: 'run',
					operation: 'getNew',
					runsOf: 'endUser',
					groupIntoIncidents: true,
					remindAfterHours: 24,
				},
				[440, 200],
			),
		];
	return undefined; // nightlyPause: the example's own nodes
}

/** One batch: examples/fleet-fanout-batch.workflow.json, its webhook enabled, its nodes for `job`. */
async function batchWorkflow(job, guard) {
	const example = await readExample('fleet-fanout-batch.workflow.json');
	const webhook = example.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
	webhook.parameters.path = batchPath(job);
	webhook.disabled = false;
	webhook.credentials = {
		httpHeaderAuth: { id: HEADER_CREDENTIAL.id, name: HEADER_CREDENTIAL.name },
	};
	webhook.webhookId = `0b5e7a4c-32f1-4f0e-9c7d-${String(Object.keys(JOBS).indexOf(job)).padStart(12, '0')}`;
	const own = jobNodes(job, guard);
	let nodes = example.nodes;
	let connections = example.connections;
	if (own) {
		nodes = [webhook, example.nodes.find((node) => node.name === SPLIT), ...own];
		connections = {
			[webhook.name]: connections[webhook.name],
			[SPLIT]: { main: [[{ node: own[0].name, type: 'main', index: 0 }]] },
		};
	} else {
		for (const node of nodes) {
			if (node.type !== NODE_TYPE) continue;
			// The same Items in Flight as the other jobs' nodes (the example's 32 only with --in-flight 32).
			node.parameters.requestOptions = {
				...node.parameters.requestOptions,
				concurrency: IN_FLIGHT,
			};
			node.credentials = {
				albatoPartnerApi: { id: PARTNER_CREDENTIAL.id, name: PARTNER_CREDENTIAL.name },
			};
		}
	}
	return {
		...example,
		id: JOBS[job].batchId,
		name: `Bench: ${job}, one batch`,
		nodes,
		connections,
	};
}

/** The fan-out: examples/fleet-fanout.workflow.json, started by a webhook with the customer list. */
async function fanoutWorkflow(job, webhookBase) {
	const example = await readExample('fleet-fanout.workflow.json');
	const trigger = example.nodes.find((node) => node.type === 'n8n-nodes-base.scheduleTrigger');
	const start = {
		parameters: {
			httpMethod: 'POST',
			path: fanoutPath(job),
			responseMode: 'onReceived',
			options: {},
			authentication: 'headerAuth',
		},
		name: 'Start',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: trigger.position,
		webhookId: `0b5e7a4c-32f1-4f0e-9c7d-1${String(Object.keys(JOBS).indexOf(job)).padStart(11, '0')}`,
		credentials: { httpHeaderAuth: { id: HEADER_CREDENTIAL.id, name: HEADER_CREDENTIAL.name } },
	};
	const nodes = example.nodes.map((node) => {
		if (node === trigger) return start;
		const copy = structuredClone(node);
		if (copy.name === 'Customers')
			copy.parameters.jsonOutput = '={{ JSON.stringify({ customers: $json.body.customers }) }}';
		if (copy.type === 'n8n-nodes-base.code')
			copy.parameters.jsCode = copy.parameters.jsCode.replace(
				/const size = \d+;/,
				`const size = ${BATCH};`,
			);
		if (copy.type === 'n8n-nodes-base.httpRequest') {
			copy.parameters.url = `${webhookBase}/webhook/${batchPath(job)}`;
			copy.credentials = {
				httpHeaderAuth: { id: HEADER_CREDENTIAL.id, name: HEADER_CREDENTIAL.name },
			};
			copy.parameters.jsonBody =
				"={{ JSON.stringify({ batch: $json.batch, customers: $json.customers, stopAfterFailures: $('Start').first().json.body.stopAfterFailures }) }}";
		}
		return copy;
	});
	const connections = Object.fromEntries(
		Object.entries(example.connections).map(([from, to]) => [
			from === trigger.name ? 'Start' : from,
			to,
		]),
	);
	return { ...example, id: JOBS[job].fanId, name: `Bench: ${job}, fan-out`, nodes, connections };
}

// ---- measuring ---------------------------------------------------------------------------------------

/** Peak RSS (VmHWM) of a process, in MB; `reset` first clears it (clear_refs 5). */
async function peakRss(pid, { reset = false } = {}) {
	try {
		if (reset) {
			await writeFile(`/proc/${pid}/clear_refs`, '5');
			return undefined;
		}
		const status = await readFile(`/proc/${pid}/status`, 'utf8');
		const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
		return Math.round(kb / 1024);
	} catch {
		return undefined;
	}
}

class Bench {
	constructor({ emulator, postgres, n8n, roles, webhookBase, partner, flatted, logDir }) {
		Object.assign(this, { emulator, postgres, n8n, roles, webhookBase, partner, flatted, logDir });
	}

	processes() {
		return {
			main: this.n8n.server,
			...Object.fromEntries(this.roles.map((r) => [r.name, r.child])),
		};
	}

	async resetPeaks() {
		for (const child of Object.values(this.processes())) await peakRss(child.pid, { reset: true });
	}

	async peaks() {
		const out = {};
		for (const [name, child] of Object.entries(this.processes()))
			out[name] = await peakRss(child.pid);
		return out;
	}

	async maxExecutionId() {
		const [[id]] = await this.postgres.psql('SELECT coalesce(max(id), 0) FROM execution_entity');
		return Number(id);
	}

	/** Executions after `afterId`: `{ id, workflowId, status, startedMs, stoppedMs }`. */
	async executionsAfter(afterId) {
		const rows = await this.postgres.psql(
			`SELECT id, "workflowId", status, extract(epoch from "startedAt") * 1000, extract(epoch from "stoppedAt") * 1000 FROM execution_entity WHERE id > ${Number(afterId)} ORDER BY id`,
		);
		return rows.map(([id, workflowId, status, started, stopped]) => ({
			id: Number(id),
			workflowId,
			status,
			startedMs: started ? Number(started) : undefined,
			stoppedMs: stopped ? Number(stopped) : undefined,
		}));
	}

	async post(webhookPath, body) {
		const response = await fetch(`${this.webhookBase}/webhook/${webhookPath}`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				[HEADER_CREDENTIAL.data.name]: HEADER_CREDENTIAL.data.value,
			},
			body: JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(
				`POST /webhook/${webhookPath}: ${response.status} ${(await response.text()).slice(0, 300)}`,
			);
	}

	/**
	 * Waits for `batches` finished executions of the job's batch workflow (and its fan-out, when
	 * `fanout`) after `afterId`; `onTick` runs every poll (the worker kill).
	 */
	async waitJob(job, afterId, { batches, fanout, timeoutMs, onTick, allowStuck = false }) {
		const done = (e) =>
			e.stoppedMs !== undefined && !['new', 'running', 'waiting'].includes(e.status);
		let last = '';
		let lastChange = Date.now();
		return waitFor(
			`${batches} executions of ${job}`,
			async () => {
				const all = await this.executionsAfter(afterId);
				const own = all.filter((e) => e.workflowId === JOBS[job].batchId);
				const parent = all.filter((e) => e.workflowId === JOBS[job].fanId);
				if (fanout && parent.some((e) => done(e) && e.status !== 'success'))
					throw Object.assign(
						new Error(`the fan-out execution ${parent[0].id} ended "${parent[0].status}"`),
						{
							fatal: true,
						},
					);
				await onTick?.(own);
				const state = own.map((e) => `${e.id}:${e.status}`).join(',');
				if (state !== last) {
					last = state;
					lastChange = Date.now();
				}
				const finished = own.filter(done);
				if (
					allowStuck &&
					finished.length + own.filter((e) => !done(e)).length >= batches &&
					Date.now() - lastChange > allowStuck
				)
					return { own, parent, stuck: own.filter((e) => !done(e)) };
				return finished.length >= batches && (!fanout || parent.every(done))
					? { own, parent, stuck: [] }
					: undefined;
			},
			{ timeoutMs, intervalMs: 500 },
		);
	}

	/** The run data of one execution, decoded. */
	async runData(executionId) {
		const rows = await this.postgres.psql(
			`SELECT data FROM execution_data WHERE "executionId" = ${Number(executionId)}`,
		);
		if (!rows.length) return undefined;
		return this.flatted.parse(rows[0][0]).resultData?.runData;
	}

	async storedBytes(ids) {
		if (!ids.length) return 0;
		const [[bytes]] = await this.postgres.psql(
			`SELECT coalesce(sum(octet_length(data)), 0) FROM execution_data WHERE "executionId" IN (${ids.join(',')})`,
		);
		return Number(bytes);
	}

	async executionsPerWorker(ids) {
		const wanted = new Set(ids.map(String));
		const out = {};
		for (const role of this.roles.filter((r) => r.name.startsWith('worker'))) {
			const log = await readFile(role.logFile, 'utf8').catch(() => '');
			out[role.name] = [...log.matchAll(/Worker started execution (\d+)/g)].filter((m) =>
				wanted.has(m[1]),
			).length;
		}
		return out;
	}

	/**
	 * Runs one job over `customers` ([{customerId, …}]): as a fan-out (one POST to the fan-out
	 * webhook) or as one execution (one POST to the batch webhook). Returns its figures and the
	 * decoded run data of each batch execution.
	 */
	async runJob(job, customers, { single = false, timeoutMs, onTick, extra = {}, allowStuck } = {}) {
		await this.emulator.control('DELETE', '/requests');
		await this.resetPeaks();
		const afterId = await this.maxExecutionId();
		const batches = single ? 1 : Math.ceil(customers.length / BATCH);
		const began = Date.now();
		await this.post(single ? batchPath(job) : fanoutPath(job), { customers, ...extra });
		const { own, parent, stuck } = await this.waitJob(job, afterId, {
			batches,
			fanout: !single,
			timeoutMs: timeoutMs ?? Math.max(300_000, customers.length * 200),
			onTick,
			allowStuck,
		});
		const stoppedMs = Math.max(...own.filter((e) => e.stoppedMs).map((e) => e.stoppedMs));
		const seconds = roundSeconds(stoppedMs - began);
		const summary = await this.emulator.control('GET', '/requests/summary');
		const rss = await this.peaks();
		const ids = [...own, ...parent].map((e) => e.id);
		const runs = [];
		for (const execution of own.filter((e) => !stuck.includes(e)))
			runs.push({ execution, runData: await this.runData(execution.id) });
		const failed = failedItems(runs);
		const workerRss = Object.entries(rss)
			.filter(([name]) => name.startsWith('worker'))
			.map(([, mb]) => mb ?? 0);
		return {
			figures: {
				seconds,
				failedItems: failed.count,
				maxTokenCallsPerCustomerPerWorker: summary.tokenCalls.maxPerUser,
				tokenCalls: summary.tokenCalls.total,
				peakWorkerRssMB: Math.max(...workerRss),
				rssMB: rss,
				calls: {
					total: summary.total,
					rateLimited: summary.rateLimited,
					byKind: summary.byKind,
					byStatus: summary.byStatus,
				},
				storedMB: megabytes(await this.storedBytes(ids)),
				executions: ids.length,
				executionsPerWorker: await this.executionsPerWorker(ids),
				...(stuck.length ? { executionsLeftRunning: stuck.length } : {}),
			},
			failedCustomers: failed.customers,
			runs,
		};
	}

	async seed(count, idPrefix) {
		const { customers } = await this.emulator.control('POST', '/fleet', {
			count,
			idPrefix,
			runsPerBundle: 1,
		});
		return customers;
	}

	async state() {
		return this.emulator.state();
	}
}

/** The customer id behind item `index` of `node`'s input, following pairedItem back to the Split Out. */
function customerOf(runData, node, index) {
	let current = node;
	let item = index;
	for (let hop = 0; hop < 10; hop++) {
		const source = runData[current]?.[0]?.source?.[0];
		if (!source) return undefined;
		const previous =
			runData[source.previousNode]?.[0]?.data?.main?.[source.previousNodeOutput ?? 0]?.[item];
		if (!previous) return undefined;
		if (source.previousNode === SPLIT) return previous.json.customerId;
		const paired = Array.isArray(previous.pairedItem)
			? previous.pairedItem[0]
			: previous.pairedItem;
		item = typeof paired === 'number' ? paired : (paired?.item ?? 0);
		current = source.previousNode;
	}
	return undefined;
}

/** Items on the error outputs of the Albato nodes (or every item of a node that failed as a whole). */
function failedItems(runs) {
	let count = 0;
	const customers = new Set();
	for (const { execution, runData } of runs) {
		if (!runData) {
			count += 1;
			continue;
		}
		for (const [name, tasks] of Object.entries(runData)) {
			const task = tasks?.[0];
			if (!task || name === SPLIT || !runData[SPLIT]) continue;
			const isAlbato = task.source?.length && name !== 'One batch';
			if (!isAlbato) continue;
			if (task.error && !task.data) {
				count += runData[SPLIT][0].data.main[0].length;
				continue;
			}
			const errors = task.data?.main?.[1] ?? [];
			count += errors.length;
			for (const error of errors) {
				const paired = Array.isArray(error.pairedItem) ? error.pairedItem[0] : error.pairedItem;
				const id = customerOf(
					runData,
					name,
					typeof paired === 'number' ? paired : (paired?.item ?? 0),
				);
				if (id) customers.add(id);
			}
		}
		if (execution.status !== 'success' && !runData[SPLIT]) count += 1;
	}
	return { count, customers };
}

/** Per customer: one active installation titled `Leads of <id>` whose subject is `subject`. */
function convergence(state, partnerName, customerIds, subject) {
	const bySub = new Map();
	for (const installation of state.installations) {
		const list = bySub.get(installation.userId);
		if (list) list.push(installation);
		else bySub.set(installation.userId, [installation]);
	}
	const byBundle = new Map();
	for (const record of state.bundleData) {
		const list = byBundle.get(record.bundleId);
		if (list) list.push(record);
		else byBundle.set(record.bundleId, [record]);
	}
	const subjectFast = (installation) =>
		installation.bundleIds
			.flatMap((bundleId) => byBundle.get(bundleId) ?? [])
			.flatMap((record) => record.fields)
			.find((field) => field.name === 'subject')?.value;
	let notConverged = 0;
	let duplicateInstallations = 0;
	const notConvergedIds = [];
	for (const id of customerIds) {
		const own = (bySub.get(`${partnerName}:${id}`) ?? []).filter(
			(i) => i.title === `Leads of ${id}`,
		);
		const active = own.filter((i) => Number(i.status) === 1);
		if (own.length > 1) duplicateInstallations += own.length - 1;
		if (active.length !== 1 || subjectFast(active[0]) !== subject) {
			notConverged++;
			if (notConvergedIds.length < 10) notConvergedIds.push(id);
		}
	}
	return { notConverged, duplicateInstallations, notConvergedIds };
}

async function mapLimited(list, limit, fn) {
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, list.length) }, async () => {
			while (next < list.length) {
				const i = next++;
				await fn(list[i], i);
			}
		}),
	);
}

// ---- the jobs ----------------------------------------------------------------------------------------

async function nightlyPause(bench, n, prefix, options = {}) {
	const seeded = await bench.seed(n, prefix);
	const customers = seeded.map(({ id }) => ({ customerId: id }));
	const { figures } = await bench.runJob('nightlyPause', customers, options);
	const state = await bench.state();
	const sub = new Set(seeded.map(({ id }) => `${bench.partner.name}:${id}`));
	figures.leftActive = state.installations.filter(
		(i) => sub.has(i.userId) && Number(i.status) === 1,
	).length;
	return figures;
}

async function fleetChange(bench, seeded, subject, options = {}) {
	const customers = (options.customers ?? seeded.map(({ id }) => id)).map((customerId) => ({
		customerId,
		subject,
	}));
	const result = await bench.runJob('fleetChange', customers, options);
	const state = await bench.state();
	const check = convergence(
		state,
		bench.partner.name,
		options.convergedOf ?? seeded.map(({ id }) => id),
		subject,
	);
	Object.assign(result.figures, check);
	return result;
}

async function fleetSweep(bench, seeded) {
	const injected = [];
	const inject = async (customers, outcome) => {
		await mapLimited(customers, 16, async (customer) => {
			const run = await bench.emulator.control('POST', '/runs', {
				bundleId: customer.bundleIds[0],
				outcome,
			});
			if (outcome === 'failed') injected.push(String(run.id));
		});
	};
	// Sweep 1: every 20th customer has a new failed run. Sweep 2: those recover (a succeeded run),
	// and every 20th from the 10th on fails.
	const first = seeded.filter((_, i) => i % 20 === 0);
	const second = seeded.filter((_, i) => i % 20 === 10);
	const customers = seeded.map(({ id }) => ({ customerId: id }));
	const sweeps = [];
	const opened = [];
	let resolved = 0;
	for (const [round, before] of [
		[1, () => inject(first, 'failed')],
		[
			2,
			async () => {
				await inject(first, 'succeeded');
				await inject(second, 'failed');
			},
		],
	]) {
		await before();
		const { figures, runs } = await bench.runJob('fleetSweep', customers);
		sweeps.push(figures);
		for (const { runData } of runs)
			for (const item of runData?.['New failures, as incidents']?.[0]?.data?.main?.[0] ?? []) {
				if (item.json.event === 'incidentOpened')
					opened.push(String(item.json.run?.id ?? item.json.firstFailedRunId));
				if (item.json.event === 'incidentResolved') resolved++;
			}
		const [[memoryBytes] = []] = await bench.postgres.psql(
			`SELECT octet_length("staticData"::text) FROM workflow_entity WHERE id = '${JOBS.fleetSweep.batchId}'`,
		);
		figures.staticDataBytes = Number(memoryBytes ?? 0);
		console.log(
			`    sweep ${round}: ${figures.seconds} s, ${figures.calls.total} calls, ${figures.failedItems} failed, static data ${figures.staticDataBytes} bytes`,
		);
		if (process.env.BENCH_FLEET_DEBUG)
			console.log(JSON.stringify({ byKind: figures.calls.byKind, events: counts(runs) }));
	}
	const slowest = sweeps.reduce((a, b) => (b.seconds > a.seconds ? b : a));
	const twice = opened.filter((id, i) => opened.indexOf(id) !== i).length;
	const missed = injected.filter((id) => !opened.includes(id)).length;
	return {
		...slowest,
		seconds: slowest.seconds,
		failedItems: sweeps.reduce((sum, s) => sum + s.failedItems, 0),
		sweepsSeconds: sweeps.map((s) => s.seconds),
		failedRunsInjected: injected.length,
		incidentsOpened: opened.length,
		incidentsResolved: resolved,
		automationsRecovered: first.length,
		runsReportedTwice: twice,
		runsMissed: missed,
	};
}

/** Output items of the sweep's node by event (debugging). */
function counts(runs) {
	const out = {};
	for (const { runData } of runs)
		for (const item of runData?.['New failures, as incidents']?.[0]?.data?.main?.[0] ?? [])
			out[item.json.event] = (out[item.json.event] ?? 0) + 1;
	return out;
}

/** 1% invalid End User IDs, 1% whose calls fail; then a worker killed halfway through, and a rerun. */
async function faults(bench, n, restartWorker) {
	const seeded = await bench.seed(n, `f${n}-`);
	const bad = Math.max(1, Math.round(n / 100));
	// Not among the canary items of a batch (the first 10): a failing canary stops its batch, as it should.
	const spots = seeded.map((_, i) => i).filter((i) => i % BATCH >= 10);
	const step = Math.floor(spots.length / (2 * bad));
	const failing = Array.from({ length: bad }, (_, k) => seeded[spots[(2 * k + 1) * step]]);
	const invalid = Array.from({ length: bad }, (_, k) => `no-such-customer-${k}`);
	const customerIds = seeded.map(({ id }) => id);
	for (const [k, id] of invalid.entries()) customerIds.splice(spots[2 * k * step] + k, 0, id);
	const failingIds = new Set(failing.map((c) => c.id));
	const half = Math.ceil(failing.length / 2);
	const rule = (list) =>
		`^/solution/installation/(${list.map((c) => c.installationId).join('|')})$`;
	await bench.emulator.control('POST', '/faults', {
		path: rule(failing.slice(0, half)),
		regex: true,
		status: 503,
		times: 1e9,
	});
	if (failing.length > half)
		await bench.emulator.control('POST', '/faults', {
			path: rule(failing.slice(half)),
			regex: true,
			reset: 'before',
			times: 1e9,
		});
	// Stop After Failures as a count above the bad customers a batch can hold (1% would stop them all).
	const stopAfterFailures = String(Math.ceil(BATCH / 20));
	const run = await fleetChange(bench, seeded, 'v2', {
		customers: customerIds,
		convergedOf: seeded.map(({ id }) => id).filter((id) => !failingIds.has(id)),
		extra: { stopAfterFailures },
	});
	await bench.emulator.control('DELETE', '/faults');
	const expected = new Set([...invalid, ...failingIds]);
	const failedAlone =
		run.failedCustomers.size === expected.size &&
		[...expected].every((id) => run.failedCustomers.has(id));
	console.log(
		`    faults: ${run.figures.seconds} s, ${run.figures.failedItems} failed (${expected.size} bad), others not converged ${run.figures.notConverged}`,
	);

	// A worker killed halfway through the next change (one that runs a batch of it), then a rerun.
	let worker;
	let killedAt;
	const goodIds = seeded.map(({ id }) => id);
	const killRun = await fleetChange(bench, seeded, 'v3', {
		customers: goodIds,
		allowStuck: 60_000,
		onTick: async (own) => {
			if (killedAt) return;
			const summary = await bench.emulator.control('GET', '/requests/summary');
			const puts = summary.byKind['PUT /bundle/data/{id}'] ?? 0;
			if (puts < n / 2) return;
			const running = new Set(own.filter((e) => e.status === 'running').map((e) => String(e.id)));
			for (const role of bench.roles.filter((r) => r.name.startsWith('worker'))) {
				const log = await readFile(role.logFile, 'utf8').catch(() => '');
				if ([...log.matchAll(/Worker started execution (\d+)/g)].some((m) => running.has(m[1]))) {
					worker = role;
					break;
				}
			}
			if (!worker) return;
			killedAt = { puts, at: Date.now() };
			process.kill(worker.child.pid, 'SIGKILL');
			console.log(
				`    killed ${worker.name} (pid ${worker.child.pid}, kill -9) after ${puts} of ${n} PUTs`,
			);
		},
	});
	if (worker) await restartWorker(worker);
	const rerun = await fleetChange(bench, seeded, 'v3', { customers: goodIds });
	console.log(
		`    after the kill: ${killRun.figures.notConverged} not converged; rerun ${rerun.figures.seconds} s: ${rerun.figures.notConverged} not converged, ${rerun.figures.duplicateInstallations} duplicates`,
	);
	return {
		customers: n,
		badCustomers: { invalidEndUserIds: invalid.length, failingCalls: failing.length },
		stopAfterFailures,
		failedItems: run.figures.failedItems,
		failedAlone,
		othersConverged: run.figures.notConverged === 0,
		othersNotConverged: run.figures.notConverged,
		seconds: run.figures.seconds,
		afterWorkerKill: {
			killed: worker?.name ?? null,
			killedAfterPuts: killedAt?.puts ?? null,
			executionsLeftRunning: killRun.figures.executionsLeftRunning ?? 0,
			notConvergedBeforeRerun: killRun.figures.notConverged,
			rerunSeconds: rerun.figures.seconds,
			rerunFailedItems: rerun.figures.failedItems,
			notConverged: rerun.figures.notConverged,
			duplicateInstallations: rerun.figures.duplicateInstallations,
		},
	};
}

// ---- the child ---------------------------------------------------------------------------------------

async function child() {
	const cert = JSON.parse(process.env.BENCH_N8N_CERT);
	const began = Date.now();
	const guard = hasRolloutGuard();
	const install = await ensureN8n((line) => console.log(line));
	const services = await ensureServices();
	const dir = await servicesDir();
	const cleanup = [];
	const folders = [dir];
	let bench;
	const results = emptyResults(SIZES, {
		n8n: N8N_VERSION,
		queueMode: { workers: WORKERS, workerConcurrency: WORKER_CONCURRENCY, webhookProcessor: 1 },
		redis: services.versions.redis,
		postgres: services.versions.postgres,
		rttMs: RTT,
		batch: BATCH,
		itemsInFlight: IN_FLIGHT || 'Auto',
		...(process.env.BENCH_WORKER_NODE_OPTIONS
			? { workerNodeOptions: process.env.BENCH_WORKER_NODE_OPTIONS }
			: {}),
		rolloutGuard: guard ? { canaryItems: 10, stopAfterFailures: '1%' } : null,
		machine: 'shared 2-core machine: the figures are a lower bound for a real server',
		date: new Date().toISOString(),
	});
	try {
		const redis = await startRedis(path.join(dir, 'redis'), {
			logFile: path.join(dir, 'redis.log'),
		});
		cleanup.push(() => redis.close());
		const postgres = await startPostgres(services.postgresBin, dir, {
			logFile: path.join(dir, 'postgres.log'),
		});
		cleanup.push(() => postgres.close());
		const emulator = await Emulator.start(repoRoot, {
			args: ['--tls-cert', cert.certFile, '--tls-key', cert.keyFile, '--quiet'],
			logFile: path.join(dir, 'emulator.log'),
		});
		cleanup.push(() => emulator.close());
		let proxyUrl;
		const proxy = startProcess(
			process.execPath,
			[
				tsNode,
				'--transpile-only',
				'scripts/lib/delayProxy.ts',
				new URL(emulator.baseUrl).port,
				String(RTT),
			],
			{
				cwd: repoRoot,
				onLine: (line) => {
					const match = /^PROXY \d+ (\d+)$/.exec(line);
					if (match) proxyUrl = `https://127.0.0.1:${match[1]}`;
				},
			},
		);
		cleanup.push(() => stop(proxy));
		await waitFor('the delay proxy', () => proxyUrl, { timeoutMs: 60_000, intervalMs: 100 });
		const partner = await emulator.control('GET', '/partner');

		const n8n = await N8nInstance.create(install, repoRoot, { env: queueEnv(redis, postgres) });
		folders.push(n8n.userFolder);
		cleanup.push(() => n8n.stop());
		const webhookPort = await freePort();
		const webhookBase = `http://127.0.0.1:${webhookPort}`;
		await n8n.importCredentials([
			HEADER_CREDENTIAL,
			{
				...PARTNER_CREDENTIAL,
				data: { baseUrl: proxyUrl, partnerName: partner.name, masterToken: partner.masterToken },
			},
		]);
		const workflows = [];
		for (const job of Object.keys(JOBS))
			workflows.push(await batchWorkflow(job, guard), await fanoutWorkflow(job, webhookBase));
		const folder = path.join(n8n.userFolder, 'import');
		await mkdir(folder);
		for (const workflow of workflows)
			await writeFile(path.join(folder, `${workflow.id}.json`), JSON.stringify(workflow));
		await n8n.cli(['import:workflow', '--separate', `--input=${folder}`]);
		for (const workflow of workflows) await n8n.cli(['publish:workflow', `--id=${workflow.id}`]);
		await n8n.start();
		// BENCH_WORKER_METRICS_PORT (P): worker-i serves n8n's /metrics on P+i (heap and RSS during a
		// job); BENCH_WORKER_NODE_OPTIONS: the workers' NODE_OPTIONS (e.g. a heap limit).
		const metricsBase = Number(process.env.BENCH_WORKER_METRICS_PORT || 0);
		const startWorker = (name) =>
			startRole(
				n8n,
				name,
				['worker', `--concurrency=${WORKER_CONCURRENCY}`],
				/n8n worker is now ready/i,
				{
					...(metricsBase
						? {
								N8N_METRICS: 'true',
								QUEUE_HEALTH_CHECK_PORT: String(metricsBase + Number(name.split('-')[1])),
								N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
							}
						: {}),
					...(process.env.BENCH_WORKER_NODE_OPTIONS
						? { NODE_OPTIONS: process.env.BENCH_WORKER_NODE_OPTIONS }
						: {}),
				},
			);
		const roles = await Promise.all([
			...Array.from({ length: WORKERS }, (_, i) => startWorker(`worker-${i + 1}`)),
			startRole(n8n, 'webhook', ['webhook'], /Webhook listener waiting for requests/i, {
				N8N_PORT: String(webhookPort),
			}),
		]);
		for (const role of roles) cleanup.push(() => stop(role.child));
		const { parse } = await import(
			path.join(install.appDir, 'node_modules', 'flatted', 'esm', 'index.js')
		);
		bench = new Bench({
			emulator,
			postgres,
			n8n,
			roles,
			webhookBase,
			partner,
			flatted: { parse },
			logDir: dir,
		});
		console.log(
			`n8n ${N8N_VERSION} queue mode: main, ${WORKERS} workers × ${WORKER_CONCURRENCY}, webhook processor; HTTPS emulator behind ${RTT} ms; batches of ${BATCH}; rollout guard ${guard ? 'on' : 'not in this build'} (set-up ${Math.round((Date.now() - began) / 1000)} s)`,
		);
		const restartWorker = async (worker) => {
			await stop(worker.child, 1000);
			const fresh = await startWorker(worker.name);
			worker.child = fresh.child;
			cleanup.push(() => stop(fresh.child));
		};

		for (const n of SIZES) {
			const sizeBegan = Date.now();
			await emulator.reset();
			await emulator.control('POST', '/requests/keep', { keep: false });
			console.log(`\n${n} customers`);
			if (ONLY.includes('nightlyPause')) {
				const pause = await nightlyPause(bench, n, `p${n}-`);
				results.jobs.nightlyPause[n] = pause;
				console.log(
					`  nightly pause: ${pause.seconds} s, ${pause.failedItems} failed, ${pause.leftActive} left active, ${pause.calls.total} calls`,
				);
			}
			const seeded = await bench.seed(n, `c${n}-`);
			if (ONLY.includes('fleetChange')) {
				const change = await fleetChange(bench, seeded, 'v2');
				results.jobs.fleetChange[n] = change.figures;
				console.log(
					`  fleet change: ${change.figures.seconds} s, ${change.figures.failedItems} failed, ${change.figures.notConverged} not converged, ${change.figures.duplicateInstallations} duplicates, ${change.figures.calls.total} calls`,
				);
			}
			if (ONLY.includes('fleetSweep')) {
				const sweep = await fleetSweep(bench, seeded);
				results.jobs.fleetSweep[n] = sweep;
				console.log(
					`  fleet sweep: ${sweep.seconds} s (slowest of 2), ${sweep.runsReportedTwice} twice, ${sweep.runsMissed} missed, ${sweep.incidentsResolved} of ${sweep.automationsRecovered} recovered automations resolved`,
				);
			}
			if (SINGLE.includes(n)) {
				const single = await nightlyPause(bench, n, `s${n}-`, { single: true });
				results.single.nightlyPause[n] = single;
				console.log(
					`  nightly pause as one execution: ${single.seconds} s, ${single.failedItems} failed, worker RSS ${single.peakWorkerRssMB} MB`,
				);
			}
			if (RATE_LIMIT) {
				await emulator.control('POST', '/rate-limit', {
					maxConcurrent: 20,
					retryAfterSeconds: 1,
					serviceMs: 50,
				});
				const limited = await nightlyPause(bench, n, `r${n}-`);
				await emulator.control('DELETE', '/rate-limit');
				results.rateLimited.nightlyPause[n] = {
					...limited,
					limit: { maxConcurrent: 20, serviceMs: 50 },
				};
				console.log(
					`  nightly pause, rate-limited (20 at once): ${limited.seconds} s, ${limited.failedItems} failed, ${limited.calls.rateLimited} × 429`,
				);
			}
			if (n === FAULTS_AT) {
				await emulator.reset();
				await emulator.control('POST', '/requests/keep', { keep: false });
				results.faults = await faults(bench, n, restartWorker);
			}
			console.log(`  (${n} customers: ${Math.round((Date.now() - sizeBegan) / 1000)} s)`);
			await writeResults(results, began);
		}
	} catch (error) {
		results.error = error instanceof Error ? error.stack : String(error);
		console.error(error);
		process.exitCode = 1;
	} finally {
		await writeResults(results, began);
		for (const close of cleanup.reverse()) await close().catch(() => {});
		await killAll();
		if (!has('--keep') && !process.exitCode)
			for (const folder of folders) await rm(folder, { recursive: true, force: true });
		else console.log(`logs: ${folders.join(', ')}`);
	}
	console.log(`\n${table(results)}\n`);
	for (const line of targetLines(results)) console.log(line);
	console.log(
		`\nfigures in ${path.relative(process.cwd(), OUT) || OUT} (${Math.round((Date.now() - began) / 1000)} s in all)`,
	);
}

async function writeResults(results, began) {
	results.setup.benchSeconds = Math.round((Date.now() - began) / 1000);
	await writeFile(OUT, `${JSON.stringify(results, null, 2)}\n`);
}

(process.env.BENCH_N8N_CERT ? child() : parent()).catch(async (error) => {
	console.error(error);
	await killAll();
	process.exit(1);
});
