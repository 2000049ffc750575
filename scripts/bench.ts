/**
 * `npm run bench [-- --n 3000] [--k 200] [--m 20] [--memory-items 10000] [--repeat 3] [--latency 5]
 *                 [--out bench-results.json] [--dist dist]`
 *
 * One run, one emulator (in a child process: its CPU does not compete with ours; 2 cores are
 * enough), the built node (dist/) in n8n-core's real WorkflowExecute through the test harness:
 *  1. raw        N × GET /solution/installation/{id} with a bare keep-alive client: the limit;
 *  2. node seq   the same N through Installation → Get, Items in Flight = 1;
 *  3. node conc  the same with Items in Flight = 8;
 *  4. bulk       K field changes over M active installations with "Pause, Update, Then Start
 *                Again": calls made against the minimum (K PUT + M PAUSE + M PLAY + M GET);
 *  5. memory     peak RSS growth while 10,000 items go through the node (in a fresh child process),
 *                the heap still held after a GC, and the same for n8n-core's httpRequest alone;
 *  6. emulator   the emulator's own requests per second (so its limit is not mistaken for ours).
 * Two reference rows explain the gaps: n8n-core's own httpRequest helper called bare (the floor for
 * any node: n8n gives it a fresh http.Agent per request, so no keep-alive), and the node sequential
 * vs 8 in flight with `--latency` ms of emulated service latency (what concurrency is for).
 * Timed figures are the median of `--repeat` runs, interleaved. `--dist` points at another build
 * (e.g. of an older commit) for before/after comparisons.
 * Prints a table and writes the figures as JSON (`--out`, default bench-results.json).
 */
import { spawn, type ChildProcess } from 'child_process';
import { writeFileSync } from 'fs';
import http from 'http';
import { cpus } from 'os';
import path from 'path';
import v8 from 'v8';
import vm from 'vm';

import type { IDataObject, IHttpRequestOptions, INodeParameters, INodeType } from 'n8n-workflow';

import { VALID_CREDENTIAL_DATA } from '../emulator/fixtures';
import { measureEmulatorRps, startEmulatorChild } from './bench-emulator';

// n8n-core writes instance settings under N8N_USER_FOLDER: keep them out of $HOME (as the tests do).
import './lib/n8nUserFolder';

// Imported after N8N_USER_FOLDER is set.
/* eslint-disable @typescript-eslint/no-require-imports */
const harness = require('../test/harness') as typeof import('../test/harness');
// n8n-core's HTTP helper, which httpRequestWithAuthentication ends in (deep path, as the harness does).
const { httpRequest: n8nHttpRequest } = require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions') as {
	httpRequest: (options: IHttpRequestOptions) => Promise<{ statusCode: number; body: string }>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const ROOT = path.join(__dirname, '..');
const NODE_NAME = 'Albato';
const IDS = [5001, 5002]; // user-1's installations in the fixtures

// ---------------------------------------------------------------------------------------------
// Arguments

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(name);
	return i === -1 ? undefined : process.argv[i + 1];
}
const num = (name: string, fallback: number) => {
	const value = Number(arg(name) ?? fallback);
	if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number, got ${arg(name)}`);
	return value;
};

// ---------------------------------------------------------------------------------------------
// The emulator in a child process, and a bare keep-alive client for it

interface Service {
	child?: ChildProcess;
	baseUrl: string;
	token: string;
}


const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** One call over the keep-alive agent; PLAY/PAUSE are sent literally. */
function call(service: Service, method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: unknown }> {
	const payload = body === undefined ? undefined : JSON.stringify(body);
	return new Promise((resolve, reject) => {
		const req = http.request(
			new URL(urlPath, service.baseUrl),
			{
				method,
				agent,
				headers: {
					Authorization: `Bearer ${service.token}`,
					...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
				},
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					let parsed: unknown = text;
					try {
						parsed = JSON.parse(text);
					} catch {
						/* keep the text */
					}
					resolve({ status: res.statusCode ?? 0, body: parsed });
				});
			},
		);
		req.on('error', reject);
		req.end(payload);
	});
}

async function dataOf<T>(service: Service, method: string, urlPath: string, body?: unknown): Promise<T> {
	const res = await call(service, method, urlPath, body);
	if (res.status >= 300) throw new Error(`${method} ${urlPath} → ${res.status} ${JSON.stringify(res.body)}`);
	return ((res.body as { data?: unknown } | undefined)?.data ?? res.body) as T;
}

/** N raw GETs of the installations, round robin, `concurrency` at once over keep-alive sockets. */
async function rawGets(service: Service, n: number, concurrency: number): Promise<number> {
	const rawAgent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
	const once = (id: number) =>
		new Promise<void>((resolve, reject) => {
			http
				.get(new URL(`/solution/installation/${id}`, service.baseUrl), { agent: rawAgent, headers: { Authorization: `Bearer ${service.token}` } }, (res) => {
					// Read the body as the node does (it parses it): a fair comparison.
					const chunks: Buffer[] = [];
					res.on('data', (c: Buffer) => chunks.push(c));
					res.on('end', () => {
						if (res.statusCode !== 200) reject(new Error(`raw GET → ${res.statusCode}`));
						else {
							JSON.parse(Buffer.concat(chunks).toString('utf8'));
							resolve();
						}
					});
				})
				.on('error', reject);
		});
	let next = 0;
	const started = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next < n) await once(IDS[next++ % IDS.length]);
		}),
	);
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	rawAgent.destroy();
	return seconds;
}

/**
 * The same GETs through n8n-core's httpRequest, bare: no engine, no expressions, no credential
 * lookup, the header set by hand; the options are those our transport sends. No node can be faster.
 */
function floorGet(service: Service, id: number) {
	return n8nHttpRequest({
		method: 'GET',
		url: `${service.baseUrl}/solution/installation/${id}`,
		headers: { Accept: 'application/json', Authorization: `Bearer ${service.token}` },
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: 30_000,
	});
}

async function floorGets(service: Service, n: number, concurrency: number): Promise<number> {
	const once = async (id: number) => {
		const response = await floorGet(service, id);
		if (response.statusCode !== 200) throw new Error(`n8n httpRequest → ${response.statusCode}`);
		JSON.parse(response.body);
	};
	let next = 0;
	const started = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (next < n) await once(IDS[next++ % IDS.length]);
		}),
	);
	return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Every GET of an installation waits `ms` in the emulator before it is answered (a slower, farther service). */
async function addLatency(service: Service, ms: number, times: number) {
	const res = await call(service, 'POST', '/__emulator/faults', { method: 'GET', path: '^/solution/installation/\\d+$', regex: true, delayMs: ms, times });
	if (res.status !== 201) throw new Error(`could not add the latency rule: ${JSON.stringify(res.body)}`);
}

// ---------------------------------------------------------------------------------------------
// The node in n8n-core's engine

// The built node, as n8n loads it (`--dist` for another build).
const DIST = path.resolve(arg('--dist') ?? path.join(ROOT, 'dist'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AlbatoSolutions } = require(path.join(DIST, 'nodes/AlbatoSolutions/AlbatoSolutions.node.js')) as {
	AlbatoSolutions: new () => INodeType;
};

async function runNode(service: Service, parameters: INodeParameters, inputItems: IDataObject[]) {
	const result = await harness.runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [{ name: NODE_NAME, type: 'albatoSolutions', parameters }],
		inputItems,
		credentials: { albatoSolutionsApi: { baseUrl: service.baseUrl, accessToken: service.token } },
	});
	const error = result.error(NODE_NAME);
	if (error) throw new Error(`node failed: ${error.message}`);
	return result.output(NODE_NAME);
}

const getParameters = (concurrency: number): INodeParameters => ({
	resource: 'installation',
	operation: 'get',
	installationId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
	requestOptions: { concurrency },
});

/**
 * Credential loads (what n8n does per getCredentials: in n8n a database read, a decryption and the
 * credential's expressions) and `authenticate` applications, counted in the harness's helper.
 */
const credentialCalls = { loads: 0, authenticate: 0 };
{
	const helper = harness.TestCredentialsHelper.prototype;
	const { getDecrypted, authenticate } = helper;
	helper.getDecrypted = function (...args: Parameters<typeof getDecrypted>) {
		credentialCalls.loads++;
		return getDecrypted.apply(this, args);
	};
	helper.authenticate = function (...args: Parameters<typeof authenticate>) {
		credentialCalls.authenticate++;
		return authenticate.apply(this, args);
	};
}

const getItems = (n: number) => Array.from({ length: n }, (_, i) => ({ id: IDS[i % IDS.length] }));

/** N items through Installation → Get; checks every output and its pairing. */
async function nodeGets(service: Service, n: number, concurrency: number): Promise<number> {
	const items = getItems(n);
	credentialCalls.loads = credentialCalls.authenticate = 0;
	const started = process.hrtime.bigint();
	const output = await runNode(service, getParameters(concurrency), items);
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	if (output.length !== n) throw new Error(`expected ${n} items, got ${output.length}`);
	output.forEach((item, i) => {
		if (item.json.id !== items[i].id || (item.pairedItem as { item: number }).item !== i) {
			throw new Error(`item ${i}: wrong output or pairing`);
		}
	});
	return seconds;
}

// ---------------------------------------------------------------------------------------------
// Bulk update

interface BulkResult {
	k: number;
	m: number;
	calls: Record<string, number>;
	total: number;
	minimum: number;
	seconds: number;
	allActive: boolean;
	allApplied: boolean;
}

async function bulkUpdate(service: Service, k: number, m: number): Promise<BulkResult> {
	// M installations of solution 101 (template 1011: a bundle whose second step has `subject`), started.
	const targets: Array<{ installation: number; bundle: number; step: number }> = [];
	for (let i = 0; i < m; i++) {
		const created = await dataOf<{ id: number }>(service, 'POST', '/solution/101/installation', {
			credentialData: VALID_CREDENTIAL_DATA[101],
			templateIds: [1011],
			title: `Bench ${i + 1}`,
		});
		await dataOf(service, 'PLAY', `/solution/installation/${created.id}`);
		const detail = await dataOf<{ bundles: Record<string, { id: number; steps: Array<{ id: number }> }> }>(service, 'GET', `/solution/installation/${created.id}?expand=app.templates,+bundles.steps`);
		const bundle = Object.values(detail.bundles)[0];
		targets.push({ installation: created.id, bundle: bundle.id, step: bundle.steps[1].id });
	}
	// K changes, round robin over the installations (so the groups are interleaved in the input).
	const items = Array.from({ length: k }, (_, i) => ({ ...targets[i % m], subject: `Bench subject ${i}` }));
	await call(service, 'DELETE', '/__emulator/requests');
	const started = process.hrtime.bigint();
	await runNode(
		service,
		{
			resource: 'bundleData',
			operation: 'update',
			installationId: { __rl: true, mode: 'id', value: '={{ $json.installation }}' },
			bundleId: '={{ $json.bundle }}',
			stepId: '={{ $json.step }}',
			fieldValuesMode: 'json',
			fieldValues: '={{ JSON.stringify({ subject: $json.subject }) }}',
			ifActive: 'pauseAndResume',
		},
		items,
	);
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const log = (await call(service, 'GET', '/__emulator/requests')).body as Array<{ method: string }>;
	const calls: Record<string, number> = {};
	for (const entry of log) calls[entry.method] = (calls[entry.method] ?? 0) + 1;

	const state = (await call(service, 'GET', '/__emulator/state')).body as {
		installations: Array<{ id: number; status: number }>;
		bundleData: Array<{ id: number; fields: Array<{ name: string; value: unknown }> }>;
	};
	const ours = new Set(targets.map((t) => t.installation));
	const allActive = state.installations.filter((i) => ours.has(i.id)).every((i) => i.status === 1);
	// The last change of each step wins.
	const expected = new Map<number, string>();
	for (const item of items) expected.set(item.step, item.subject);
	const allApplied = [...expected].every(([step, subject]) =>
		state.bundleData.some((r) => r.id === step && r.fields.some((f) => f.name === 'subject' && f.value === subject)),
	);
	return { k, m, calls, total: log.length, minimum: k + 3 * m, seconds, allActive, allApplied };
}

// ---------------------------------------------------------------------------------------------
// Memory (in a fresh child process, so earlier runs' heap does not hide the growth)

const gc = (() => {
	v8.setFlagsFromString('--expose-gc');
	return vm.runInNewContext('gc') as () => void;
})();

interface MemoryResult {
	items: number;
	concurrency: number;
	baselineMb: number;
	peakMb: number;
	growthMb: number;
	/** Heap still in use after a full GC with the run's output alive: what the items really cost. */
	retainedMb: number;
	seconds: number;
}

/** `kind` 'node': the items through the node; 'floor': the same GETs through n8n-core's httpRequest alone. */
async function memoryChild(service: Service, items: number, concurrency: number, kind: 'node' | 'floor'): Promise<MemoryResult> {
	// Warm-up: JIT, n8n-core's lazy singletons.
	if (kind === 'node') await nodeGets(service, 200, concurrency);
	else await floorGets(service, 200, concurrency);
	gc();
	const baseline = process.memoryUsage();
	let peak = baseline.rss;
	const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
	const started = process.hrtime.bigint();
	let kept: unknown[];
	if (kind === 'node') kept = await runNode(service, getParameters(concurrency), getItems(items));
	else kept = await floorBodies(service, items);
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	peak = Math.max(peak, process.memoryUsage().rss);
	clearInterval(timer);
	if (kept.length !== items) throw new Error(`expected ${items} items, got ${kept.length}`);
	gc();
	const retained = process.memoryUsage().heapUsed - baseline.heapUsed;
	const mb = (bytes: number) => bytes / 1024 / 1024;
	return { items, concurrency, baselineMb: mb(baseline.rss), peakMb: mb(peak), growthMb: mb(peak - baseline.rss), retainedMb: mb(retained), seconds };
}

/** The floor's GETs one at a time, keeping every parsed body (as the node keeps its output). */
async function floorBodies(service: Service, n: number): Promise<unknown[]> {
	const bodies: unknown[] = [];
	for (let i = 0; i < n; i++) bodies.push(JSON.parse((await floorGet(service, IDS[i % IDS.length])).body));
	return bodies;
}

function runMemoryChild(service: Service, items: number, concurrency: number, kind: 'node' | 'floor'): Promise<MemoryResult> {
	const child = spawn(
		process.execPath,
		['-r', 'ts-node/register/transpile-only', __filename, '--memory-child', String(items), String(concurrency), kind, '--dist', DIST],
		{ stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BENCH_BASE_URL: service.baseUrl, BENCH_TOKEN: service.token } },
	);
	return new Promise((resolve, reject) => {
		let out = '';
		child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.on('exit', (code) => {
			const line = out.split('\n').find((l) => l.startsWith('MEMORY '));
			if (code !== 0 || !line) reject(new Error(`memory child exited with ${code}: ${out}`));
			else resolve(JSON.parse(line.slice('MEMORY '.length)) as MemoryResult);
		});
	});
}

// ---------------------------------------------------------------------------------------------
// Main

const ms = (seconds: number, n: number) => (seconds * 1000) / n;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const clearLog = (service: Service) => call(service, 'DELETE', '/__emulator/requests');

async function main(): Promise<void> {
	if (process.argv.includes('--memory-child')) {
		const i = process.argv.indexOf('--memory-child');
		const service = { baseUrl: process.env.BENCH_BASE_URL!, token: process.env.BENCH_TOKEN! };
		const kind = process.argv[i + 3] === 'floor' ? 'floor' : 'node';
		const result = await memoryChild(service, Number(process.argv[i + 1]), Number(process.argv[i + 2]), kind);
		console.log(`MEMORY ${JSON.stringify(result)}`);
		harness.releaseN8nResources();
		agent.destroy();
		return;
	}

	const n = Math.floor(num('--n', 3000));
	const k = Math.floor(num('--k', 200));
	const m = Math.floor(num('--m', 20));
	const memoryItems = Math.floor(num('--memory-items', 10_000));
	const repeat = Math.max(1, Math.floor(num('--repeat', 3)));
	const latency = num('--latency', 5);
	const latencyItems = Math.floor(num('--latency-items', 400));
	const emulatorRequests = Math.floor(num('--emulator-requests', 5000));
	const out = path.resolve(arg('--out') ?? 'bench-results.json');
	if (n < 1 || m < 1 || k < m) throw new Error('need --n ≥ 1, --m ≥ 1 and --k ≥ --m');

	const service = await startEmulatorChild();
	const began = Date.now();
	try {
		console.log(`emulator in a child process at ${service.baseUrl}; node ${process.version}; ${cpus().length} CPUs; build ${path.relative(ROOT, DIST) || DIST}`);
		console.log(`N=${n} (median of ${repeat}), K=${k}, M=${m}, memory ${memoryItems} items, latency row ${latency} ms × ${latencyItems} items\n`);

		// Warm-up of both processes (JIT, sockets, n8n-core's lazy singletons); not measured.
		await rawGets(service, 500, 1);
		await floorGets(service, 300, 1);
		await nodeGets(service, 300, 1);
		await nodeGets(service, 300, 8);
		await clearLog(service);

		// 6. The emulator alone, first, while nothing else has run against it.
		const emulator1 = await measureEmulatorRps(service.baseUrl, service.token, emulatorRequests, 1);
		const emulator8 = await measureEmulatorRps(service.baseUrl, service.token, emulatorRequests, 8);

		// 1–3 (and the floor), interleaved so drift of the machine hits all alike; medians.
		let credentials = { ...credentialCalls };
		const runs = { raw1: [] as number[], raw8: [] as number[], floor1: [] as number[], floor8: [] as number[], seq: [] as number[], conc: [] as number[] };
		for (let r = 0; r < repeat; r++) {
			runs.raw1.push(await rawGets(service, n, 1));
			runs.raw8.push(await rawGets(service, n, 8));
			runs.floor1.push(await floorGets(service, n, 1));
			runs.floor8.push(await floorGets(service, n, 8));
			runs.seq.push(await nodeGets(service, n, 1));
			credentials = { ...credentialCalls };
			runs.conc.push(await nodeGets(service, n, 8));
			await clearLog(service); // the emulator's request log would otherwise grow all run long
		}
		const raw1 = median(runs.raw1);
		const raw8 = median(runs.raw8);
		const floor1 = median(runs.floor1);
		const floor8 = median(runs.floor8);
		const seq = median(runs.seq);
		const conc = median(runs.conc);

		// With service latency: what Items in Flight is for.
		await addLatency(service, latency, latencyItems * 2);
		const slowSeq = await nodeGets(service, latencyItems, 1);
		const slowConc = await nodeGets(service, latencyItems, 8);
		await call(service, 'DELETE', '/__emulator/faults');
		await clearLog(service);

		// 4. Bulk update.
		const bulk = await bulkUpdate(service, k, m);
		await clearLog(service);

		// 5. Memory, in a fresh process.
		const memory = await runMemoryChild(service, memoryItems, 1, 'node');
		await clearLog(service);
		const memoryFloor = await runMemoryChild(service, memoryItems, 1, 'floor');
		await clearLog(service);

		const targets = {
			sequentialVsRaw: { target: '≤ 1.5', value: seq / raw1, met: seq / raw1 <= 1.5 },
			concurrentVsSequential: { target: '≥ 3', value: seq / conc, met: seq / conc >= 3 },
			bulkCalls: { target: `= ${bulk.minimum}`, value: bulk.total, met: bulk.total === bulk.minimum && bulk.allActive && bulk.allApplied },
			memoryGrowthMb: { target: '< 150', value: memory.growthMb, met: memory.growthMb < 150 },
		};
		const results = {
			date: new Date().toISOString(),
			node: process.version,
			cpus: cpus().length,
			build: DIST,
			n,
			repeat,
			raw: {
				sequential: { seconds: raw1, msPerRequest: ms(raw1, n), rps: n / raw1, runs: runs.raw1 },
				concurrent8: { seconds: raw8, rps: n / raw8, runs: runs.raw8 },
			},
			n8nHttpRequestFloor: {
				sequential: { seconds: floor1, msPerRequest: ms(floor1, n), rps: n / floor1, vsRaw: floor1 / raw1, runs: runs.floor1 },
				concurrent8: { seconds: floor8, rps: n / floor8, vsSequential: floor1 / floor8, runs: runs.floor8 },
			},
			nodeSequential: {
				seconds: seq,
				msPerItem: ms(seq, n),
				itemsPerSecond: n / seq,
				vsRaw: seq / raw1,
				vsFloor: seq / floor1,
				credentialLoads: credentials.loads,
				authenticateCalls: credentials.authenticate,
				runs: runs.seq,
			},
			nodeConcurrent8: { seconds: conc, msPerItem: ms(conc, n), itemsPerSecond: n / conc, vsSequential: seq / conc, runs: runs.conc },
			withLatency: { latencyMs: latency, items: latencyItems, sequentialSeconds: slowSeq, concurrent8Seconds: slowConc, speedup: slowSeq / slowConc },
			bulkUpdate: bulk,
			memory,
			memoryN8nHttpRequestAlone: memoryFloor,
			emulator: { concurrency1: emulator1, concurrency8: emulator8 },
			targets,
			benchSeconds: 0,
		};
		results.benchSeconds = (Date.now() - began) / 1000;
		writeFileSync(out, JSON.stringify(results, null, 2) + '\n');

		const f = (x: number, d = 2) => x.toFixed(d);
		const verdict = (target: string, met: boolean) => `${target}: ${met ? 'met' : 'NOT met'}`;
		const callList = Object.entries(bulk.calls).map(([method, count]) => `${count} ${method}`).join(' + ');
		const rows: string[][] = [
			['#', 'Measure', 'Result', 'Ratio', 'Target'],
			['1', `raw: ${n} × GET, bare keep-alive client, 1 at a time`, `${f(raw1)} s · ${f(ms(raw1, n), 3)} ms/req · ${f(n / raw1, 0)} req/s`, '1.00× (the limit)', ''],
			['', `raw, 8 at a time`, `${f(raw8)} s · ${f(n / raw8, 0)} req/s`, `${f(raw1 / raw8)}× raw`, ''],
			['', `n8n-core httpRequest alone, 1 at a time (floor for any node)`, `${f(floor1)} s · ${f(ms(floor1, n), 3)} ms/req`, `${f(floor1 / raw1)}× raw time`, ''],
			['', `n8n-core httpRequest alone, 8 at a time`, `${f(floor8)} s · ${f(n / floor8, 0)} req/s`, `${f(floor1 / floor8)}× its sequential`, ''],
			['2', `node, sequential (Items in Flight 1)`, `${f(seq)} s · ${f(ms(seq, n), 3)} ms/item · ${f(n / seq, 0)} items/s; credential loads ${credentials.loads}, authenticate ${credentials.authenticate}`, `${f(seq / raw1)}× raw time · ${f(seq / floor1)}× floor`, verdict('≤ 1.5× raw', targets.sequentialVsRaw.met)],
			['3', `node, concurrent (Items in Flight 8)`, `${f(conc)} s · ${f(n / conc, 0)} items/s`, `${f(seq / conc)}× sequential throughput`, verdict('≥ 3×', targets.concurrentVsSequential.met)],
			['', `node with ${latency} ms service latency, ${latencyItems} items: 1 vs 8 in flight`, `${f(slowSeq)} s vs ${f(slowConc)} s`, `${f(slowSeq / slowConc)}× throughput`, ''],
			['4', `bulk update: ${k} changes over ${m} active installations, Pause/Update/Start`, `${bulk.total} calls (${callList}) in ${f(bulk.seconds)} s; all active again: ${bulk.allActive}; all applied: ${bulk.allApplied}`, `${f(bulk.total / bulk.minimum)}× minimum (${k} PUT + ${m} GET + ${m} PAUSE + ${m} PLAY = ${bulk.minimum})`, verdict('= minimum', targets.bulkCalls.met)],
			['5', `memory: ${memory.items} items (Installation → Get), fresh process`, `peak RSS +${f(memory.growthMb, 1)} MB (${f(memory.baselineMb, 0)} → ${f(memory.peakMb, 0)} MB) in ${f(memory.seconds)} s; heap kept after GC +${f(memory.retainedMb, 1)} MB`, `${f(memory.growthMb / 150)}× budget`, verdict('< 150 MB', targets.memoryGrowthMb.met)],
			['', `memory: the same ${memoryFloor.items} GETs through n8n-core httpRequest alone`, `peak RSS +${f(memoryFloor.growthMb, 1)} MB; heap kept after GC +${f(memoryFloor.retainedMb, 1)} MB`, `node / this: ${f(memory.growthMb / memoryFloor.growthMb)}×`, ''],
			['6', `emulator alone (measureEmulatorRps, keep-alive)`, `${f(emulator1.rps, 0)} req/s at 1 · ${f(emulator8.rps, 0)} req/s at 8`, '', ''],
		];
		const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
		const line = (row: string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
		console.log(line(rows[0]));
		console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
		for (const row of rows.slice(1)) console.log(line(row));
		console.log(`\n${f(results.benchSeconds, 0)} s in all; figures written to ${path.relative(process.cwd(), out) || out}`);
	} finally {
		service.child?.removeAllListeners('exit');
		service.child?.kill('SIGTERM');
		agent.destroy();
		harness.releaseN8nResources();
	}
}

main().catch((err) => {
	console.error(err);
	process.exit(1);
});
