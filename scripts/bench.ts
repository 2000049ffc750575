/**
 * `npm run bench [-- --out bench-results.json] [--repeat 3] [--items 200] [--serial-items 10]
 *                 [--memory-items 10000] [--cpu-calls 300] [--changes 200] [--installations 20] [--dist dist]`
 *
 * What users feel: HTTPS with real round trips. The set-up (this process):
 *  - a throw-away CA and server certificate (Debian's openssl, scripts/lib/tlsCert.ts);
 *  - the emulator serving HTTPS with it, in a child process;
 *  - loopback TCP proxies adding 50 and 150 ms round trips, connection set-up included
 *    (scripts/lib/delayProxy.ts), in another child process;
 *  - the measurements in a third child process started with NODE_EXTRA_CA_CERTS = the CA: n8n-core's
 *    request helper makes a new https.Agent per call with no CA option, so that is how it trusts the
 *    certificate for this run only (verification stays on).
 * The measurements (`--measure`), per round trip, median of `--repeat` interleaved repeats:
 *  - `ideal`   a keep-alive https client: 1, 8, 32 in flight;
 *  - `helper`  n8n-core's httpRequest alone (what our transport ends in), the options our transport sends;
 *  - `node`    the built node (dist/) in n8n-core's engine, Installation → Get: 1, 8, 32 and defaults.
 *  Each in ms per item: 200 items (`--items`); 1 in flight uses `--serial-items` (its calls are
 *  independent: 200 of them would take 100 s at 150 ms).
 * Also: CPU ms per call (process.cpuUsage, loopback HTTPS, no delay) of the helper and the node;
 * a bulk update (200 changes over 20 active installations, Pause/Update/Start) at 150 ms: calls made,
 * the minimum, seconds; heap retained after GC for 10,000 items (fresh process, plain HTTP to a second
 * emulator: TLS would only add minutes). JSON to `--out`.
 */
import { spawn, type ChildProcess } from 'child_process';
import { writeFileSync } from 'fs';
import https from 'https';
import { cpus } from 'os';
import path from 'path';
import v8 from 'v8';
import vm from 'vm';

import type {
	IDataObject,
	IHttpRequestOptions,
	INodeParameters,
	INodeType,
	INodeProperties,
} from 'n8n-workflow';

import { VALID_CREDENTIAL_DATA } from '../emulator/fixtures';
import { startEmulatorChild } from './bench-emulator';
import { makeTestCertificate } from './lib/tlsCert';

// n8n-core writes instance settings under N8N_USER_FOLDER: keep them out of $HOME (as the tests do).
import '../harness/n8nUserFolder';

const ROOT = path.join(__dirname, '..');
const NODE_NAME = 'Albato';
const IDS = [5001, 5002]; // user-1's installations in the fixtures
const RTTS = [50, 150] as const;
const IN_FLIGHT = [1, 8, 32] as const;

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(name);
	return i === -1 ? undefined : process.argv[i + 1];
}
const num = (name: string, fallback: number) => {
	const value = Number(arg(name) ?? fallback);
	if (!Number.isFinite(value) || value < 0)
		throw new Error(`${name} must be a number, got ${arg(name)}`);
	return Math.floor(value);
};
const DIST = path.resolve(arg('--dist') ?? path.join(ROOT, 'dist'));
const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

// =============================================================================================
// The parent: certificate, emulator, proxies, then the measuring child

function waitForLines(
	child: ChildProcess,
	pattern: RegExp,
	count: number,
): Promise<RegExpExecArray[]> {
	return new Promise((resolve, reject) => {
		const found: RegExpExecArray[] = [];
		let out = '';
		child.on('exit', (code) => reject(new Error(`child exited with ${code}`)));
		child.stdout!.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			const lines = out.split('\n');
			out = lines.pop()!;
			for (const line of lines) {
				const match = pattern.exec(line);
				if (match) found.push(match);
				if (found.length === count) resolve(found);
			}
		});
	});
}

async function parent(): Promise<void> {
	const began = Date.now();
	const cert = makeTestCertificate();
	const children: ChildProcess[] = [];
	try {
		const emulator = await startEmulatorChild([
			'--tls-cert',
			cert.certFile,
			'--tls-key',
			cert.keyFile,
		]);
		children.push(emulator.child);
		const emulatorPort = new URL(emulator.baseUrl).port;
		// Plain HTTP for the heap measure: 10,000 TLS handshakes would only add minutes, not heap.
		const plain = await startEmulatorChild();
		children.push(plain.child);
		const proxy = spawn(
			process.execPath,
			[
				'-r',
				'ts-node/register/transpile-only',
				path.join(__dirname, 'lib', 'delayProxy.ts'),
				emulatorPort,
				RTTS.join(','),
			],
			{
				stdio: ['ignore', 'pipe', 'inherit'],
			},
		);
		children.push(proxy);
		const proxies = await waitForLines(proxy, /^PROXY (\d+) (\d+)$/, RTTS.length);
		const env: NodeJS.ProcessEnv = {
			...process.env,
			NODE_EXTRA_CA_CERTS: cert.caFile,
			BENCH_EMULATOR: emulator.baseUrl,
			BENCH_EMULATOR_PLAIN: plain.baseUrl,
			BENCH_TOKEN: emulator.token,
			BENCH_PROXIES: JSON.stringify(
				Object.fromEntries(proxies.map((m) => [m[1], `https://127.0.0.1:${m[2]}`])),
			),
		};
		// Loopback only: a proxy from the environment must not carry these calls.
		for (const key of [
			'HTTP_PROXY',
			'http_proxy',
			'HTTPS_PROXY',
			'https_proxy',
			'ALL_PROXY',
			'all_proxy',
		])
			delete env[key];
		console.log(
			`HTTPS emulator ${emulator.baseUrl} (throw-away CA, trusted by the measuring process only); round-trip proxies ${proxies.map((m) => `${m[1]} ms → :${m[2]}`).join(', ')}`,
		);
		const measure = spawn(
			process.execPath,
			['-r', 'ts-node/register/transpile-only', __filename, '--measure', ...process.argv.slice(2)],
			{ stdio: 'inherit', env },
		);
		children.push(measure);
		const code = await new Promise<number | null>((resolve) => measure.on('exit', resolve));
		if (code !== 0) throw new Error(`the measurements failed (exit ${code})`);
		console.log(`${Math.round((Date.now() - began) / 1000)} s in all`);
	} finally {
		for (const child of children) {
			child.removeAllListeners('exit');
			child.kill('SIGTERM');
		}
		cert.remove();
	}
}

// =============================================================================================
// The measuring child

/* eslint-disable @typescript-eslint/no-require-imports */
// Imported after N8N_USER_FOLDER is set.
const harness = () => require('../harness') as typeof import('../harness');
// n8n-core's HTTP helper, which httpRequestWithAuthentication ends in (deep path, as the harness does).
const n8nHttpRequest = () =>
	(
		require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions') as {
			httpRequest: (options: IHttpRequestOptions) => Promise<{ statusCode: number; body: string }>;
		}
	).httpRequest;
const nodeClass = () =>
	(
		require(path.join(DIST, 'nodes/AlbatoSolutions/AlbatoSolutions.node.js')) as {
			AlbatoSolutions: new () => INodeType;
		}
	).AlbatoSolutions;
/* eslint-enable @typescript-eslint/no-require-imports */

interface Service {
	/** Where the emulator answers directly (control calls, loopback measures). */
	direct: string;
	token: string;
	/** Base URL through the proxy of each round trip. */
	proxies: Record<string, string>;
}

const controlAgent = new https.Agent({ keepAlive: true, maxSockets: 4 });

/** One call over a keep-alive agent; PLAY/PAUSE are sent literally. Resolves the status and parsed body. */
function call(
	baseUrl: string,
	token: string,
	method: string,
	urlPath: string,
	body?: unknown,
	agent: https.Agent = controlAgent,
): Promise<{ status: number; body: unknown }> {
	const payload = body === undefined ? undefined : JSON.stringify(body);
	return new Promise((resolve, reject) => {
		const req = https.request(
			new URL(urlPath, baseUrl),
			{
				method,
				agent,
				headers: {
					Authorization: `Bearer ${token}`,
					...(payload
						? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
						: {}),
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

async function dataOf<T>(
	service: Service,
	method: string,
	urlPath: string,
	body?: unknown,
): Promise<T> {
	const res = await call(service.direct, service.token, method, urlPath, body);
	if (res.status >= 300)
		throw new Error(`${method} ${urlPath} → ${res.status} ${JSON.stringify(res.body)}`);
	return ((res.body as { data?: unknown } | undefined)?.data ?? res.body) as T;
}

const control = (service: Service, method: string, urlPath: string, body?: unknown) =>
	call(service.direct, '', method, `/__emulator${urlPath}`, body);

/** `n` tasks, `inFlight` at once; resolves the seconds taken. */
async function timedPool(
	n: number,
	inFlight: number,
	task: (i: number) => Promise<void>,
): Promise<number> {
	let next = 0;
	const started = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: Math.min(n, inFlight) }, async () => {
			while (next < n) await task(next++);
		}),
	);
	return seconds(started);
}

/** The ideal client: keep-alive sockets (one TLS handshake per socket), body parsed as the node does. */
async function idealGets(
	baseUrl: string,
	token: string,
	n: number,
	inFlight: number,
): Promise<number> {
	const agent = new https.Agent({ keepAlive: true, maxSockets: inFlight });
	try {
		return await timedPool(n, inFlight, async (i) => {
			const res = await call(
				baseUrl,
				token,
				'GET',
				`/solution/installation/${IDS[i % IDS.length]}`,
				undefined,
				agent,
			);
			if (res.status !== 200) throw new Error(`ideal GET → ${res.status}`);
		});
	} finally {
		agent.destroy();
	}
}

/** n8n-core's httpRequest alone, with the options our transport sends (no engine, header set by hand). */
function helperGet(baseUrl: string, token: string, id: number) {
	return n8nHttpRequest()({
		method: 'GET',
		url: `${baseUrl}/solution/installation/${id}`,
		headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: 30_000,
	});
}

function helperGets(baseUrl: string, token: string, n: number, inFlight: number): Promise<number> {
	return timedPool(n, inFlight, async (i) => {
		const response = await helperGet(baseUrl, token, IDS[i % IDS.length]);
		if (response.statusCode !== 200) throw new Error(`helper GET → ${response.statusCode}`);
		JSON.parse(response.body);
	});
}

async function runNode(
	baseUrl: string,
	token: string,
	parameters: INodeParameters,
	inputItems: IDataObject[],
) {
	const AlbatoSolutions = nodeClass();
	const result = await harness().runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [{ name: NODE_NAME, type: 'albatoSolutions', parameters }],
		inputItems,
		credentials: { albatoSolutionsApi: { baseUrl, accessToken: token } },
	});
	const error = result.error(NODE_NAME);
	if (error) throw new Error(`node failed: ${error.message}`);
	return result.output(NODE_NAME);
}

/** Installation → Get per item; `inFlight` undefined = the node's defaults (no Request Options). */
const getParameters = (inFlight?: number): INodeParameters => ({
	resource: 'installation',
	operation: 'get',
	installationId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
	...(inFlight === undefined ? {} : { requestOptions: { concurrency: inFlight } }),
});
const getItems = (n: number) => Array.from({ length: n }, (_, i) => ({ id: IDS[i % IDS.length] }));

/** N items through the node; checks every output and its pairing. */
async function nodeGets(
	baseUrl: string,
	token: string,
	n: number,
	inFlight?: number,
): Promise<number> {
	const items = getItems(n);
	const started = process.hrtime.bigint();
	const output = await runNode(baseUrl, token, getParameters(inFlight), items);
	const taken = seconds(started);
	if (output.length !== n) throw new Error(`expected ${n} items, got ${output.length}`);
	output.forEach((item, i) => {
		if (item.json.id !== items[i].id || (item.pairedItem as { item: number }).item !== i)
			throw new Error(`item ${i}: wrong output or pairing`);
	});
	return taken;
}

/** The node's default Items in Flight, as its description declares it. */
function defaultItemsInFlight(): number {
	const AlbatoSolutions = nodeClass();
	const options = (new AlbatoSolutions().description.properties.find(
		(p) => p.name === 'requestOptions',
	)?.options ?? []) as INodeProperties[];
	return Number(options.find((o) => o.name === 'concurrency')?.default);
}

// ---------------------------------------------------------------------------------------------
// CPU per call (loopback, no delay)

const gc = (() => {
	v8.setFlagsFromString('--expose-gc');
	return vm.runInNewContext('gc') as () => void;
})();

async function cpuPerCall(
	service: Service,
	calls: number,
	kind: 'helper' | 'node',
): Promise<number> {
	gc(); // earlier runs' garbage is not this measure's
	const before = process.cpuUsage();
	if (kind === 'helper') await helperGets(service.direct, service.token, calls, 1);
	else await nodeGets(service.direct, service.token, calls, 1);
	const used = process.cpuUsage(before);
	return (used.user + used.system) / 1000 / calls;
}

// ---------------------------------------------------------------------------------------------
// Bulk update

async function bulkUpdate(service: Service, rttMs: number, changes: number, installations: number) {
	// Installations of solution 101 (template 1011: a bundle whose second step has `subject`), started.
	const targets: Array<{ installation: number; bundle: number; step: number }> = [];
	for (let i = 0; i < installations; i++) {
		const created = await dataOf<{ id: number }>(service, 'POST', '/solution/101/installation', {
			credentialData: VALID_CREDENTIAL_DATA[101],
			templateIds: [1011],
			title: `Bench ${i + 1}`,
		});
		await dataOf(service, 'PLAY', `/solution/installation/${created.id}`);
		const detail = await dataOf<{
			bundles: Record<string, { id: number; steps: Array<{ id: number }> }>;
		}>(service, 'GET', `/solution/installation/${created.id}?expand=app.templates,+bundles.steps`);
		const bundle = Object.values(detail.bundles)[0];
		targets.push({ installation: created.id, bundle: bundle.id, step: bundle.steps[1].id });
	}
	// The changes round robin over the installations (so the groups are interleaved in the input).
	const items = Array.from({ length: changes }, (_, i) => ({
		...targets[i % installations],
		subject: `Bench subject ${i}`,
	}));
	await control(service, 'DELETE', '/requests');
	const started = process.hrtime.bigint();
	await runNode(
		service.proxies[rttMs],
		service.token,
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
	const taken = seconds(started);
	const log = (await control(service, 'GET', '/requests')).body as Array<{ method: string }>;
	const calls: Record<string, number> = {};
	for (const entry of log) calls[entry.method] = (calls[entry.method] ?? 0) + 1;
	const state = (await control(service, 'GET', '/state')).body as {
		installations: Array<{ id: number; status: number }>;
		bundleData: Array<{ id: number; fields: Array<{ name: string; value: unknown }> }>;
	};
	const ours = new Set(targets.map((t) => t.installation));
	const allActive = state.installations.filter((i) => ours.has(i.id)).every((i) => i.status === 1);
	// The last change of each step wins.
	const expected = new Map<number, string>();
	for (const item of items) expected.set(item.step, item.subject);
	const allApplied = [...expected].every(([step, subject]) =>
		state.bundleData.some(
			(r) => r.id === step && r.fields.some((f) => f.name === 'subject' && f.value === subject),
		),
	);
	return {
		rttMs,
		installations,
		changes,
		calls: log.length,
		// One PUT per change, and one read, one PAUSE and one PLAY per installation.
		minimumCalls: changes + 3 * installations,
		seconds: taken,
		callsByMethod: calls,
		allActive,
		allApplied,
	};
}

// ---------------------------------------------------------------------------------------------
// Heap retained (in a fresh process, so earlier runs' heap does not hide the growth)

async function memoryChild(service: Service, items: number) {
	const baseUrl = process.env.BENCH_EMULATOR_PLAIN!;
	await nodeGets(baseUrl, service.token, 200); // warm-up: JIT, n8n-core's lazy singletons
	gc();
	const baseline = process.memoryUsage().heapUsed;
	const kept = await runNode(baseUrl, service.token, getParameters(), getItems(items));
	if (kept.length !== items) throw new Error(`expected ${items} items, got ${kept.length}`);
	gc();
	// With the run's output still referenced: what the items cost after the run.
	return {
		items,
		node: (process.memoryUsage().heapUsed - baseline) / 1024 / 1024,
		keptItems: kept.length,
	};
}

function runMemoryChild(items: number): Promise<{ items: number; node: number }> {
	const child = spawn(
		process.execPath,
		[
			'-r',
			'ts-node/register/transpile-only',
			__filename,
			'--memory-child',
			String(items),
			'--dist',
			DIST,
		],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	return new Promise((resolve, reject) => {
		let out = '';
		child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.on('exit', (code) => {
			const line = out.split('\n').find((l) => l.startsWith('MEMORY '));
			if (code !== 0 || !line) reject(new Error(`memory child exited with ${code}: ${out}`));
			else resolve(JSON.parse(line.slice('MEMORY '.length)) as { items: number; node: number });
		});
	});
}

// ---------------------------------------------------------------------------------------------

type Figures = Record<string, number>;

async function measure(): Promise<void> {
	// n8n-core sets the TLS servername to the host, here 127.0.0.1 (Node warns: RFC 6066); harmless on loopback.
	process.noDeprecation = true;
	const service: Service = {
		direct: process.env.BENCH_EMULATOR!,
		token: process.env.BENCH_TOKEN!,
		proxies: JSON.parse(process.env.BENCH_PROXIES!) as Record<string, string>,
	};
	if (process.argv.includes('--memory-child')) {
		const result = await memoryChild(service, Number(arg('--memory-child')));
		console.log(`MEMORY ${JSON.stringify(result)}`);
		harness().releaseN8nResources();
		controlAgent.destroy();
		return;
	}
	const repeat = Math.max(1, num('--repeat', 3));
	const items = Math.max(1, num('--items', 200));
	const serialItems = Math.max(1, num('--serial-items', 10));
	const memoryItems = num('--memory-items', 10_000);
	const cpuCalls = Math.max(1, num('--cpu-calls', 300));
	const out = path.resolve(arg('--out') ?? 'bench-results.json');
	const defaults = defaultItemsInFlight();
	const began = Date.now();
	console.log(
		`node ${process.version}; ${cpus().length} CPUs; build ${path.relative(ROOT, DIST) || DIST}; ${items} items per measure (${serialItems} at 1 in flight), median of ${repeat}; node default Items in Flight ${defaults}\n`,
	);

	try {
		// Warm-up (JIT, n8n-core's lazy singletons); not measured.
		await idealGets(service.direct, service.token, 50, 4);
		await helperGets(service.direct, service.token, 50, 4);
		await nodeGets(service.direct, service.token, 50, 4);
		await control(service, 'DELETE', '/requests');

		// Per-item figures, interleaved: each repeat runs every client at every setting once.
		const runs: Record<string, Record<string, Record<string, number[]>>> = {};
		const record = (rtt: number, client: string, setting: string, value: number) => {
			((runs[rtt] ??= {})[client] ??= {})[setting] ??= [];
			runs[rtt][client][setting].push(value);
		};
		const cpu = { helper: [] as number[], node: [] as number[] };
		for (let r = 0; r < repeat; r++) {
			// CPU first, while the process's heap is small; helper and node alternate.
			cpu.helper.push(await cpuPerCall(service, cpuCalls, 'helper'));
			cpu.node.push(await cpuPerCall(service, cpuCalls, 'node'));
			await control(service, 'DELETE', '/requests');
			for (const rtt of RTTS) {
				const baseUrl = service.proxies[rtt];
				for (const inFlight of IN_FLIGHT) {
					const n = inFlight === 1 ? serialItems : items;
					record(
						rtt,
						'ideal',
						String(inFlight),
						((await idealGets(baseUrl, service.token, n, inFlight)) * 1000) / n,
					);
					record(
						rtt,
						'helper',
						String(inFlight),
						((await helperGets(baseUrl, service.token, n, inFlight)) * 1000) / n,
					);
					record(
						rtt,
						'node',
						String(inFlight),
						((await nodeGets(baseUrl, service.token, n, inFlight)) * 1000) / n,
					);
				}
				record(
					rtt,
					'node',
					'default',
					((await nodeGets(baseUrl, service.token, items)) * 1000) / items,
				);
				await control(service, 'DELETE', '/requests'); // the emulator's log would grow all run long
			}
			console.log(`repeat ${r + 1}/${repeat} done (${Math.round((Date.now() - began) / 1000)} s)`);
		}
		const perItemMs: Record<string, Record<string, Figures>> = {};
		for (const rtt of RTTS) {
			perItemMs[rtt] = {};
			for (const [client, settings] of Object.entries(runs[rtt])) {
				perItemMs[rtt][client] = Object.fromEntries(
					Object.entries(settings).map(([setting, values]) => [setting, round(median(values))]),
				);
			}
		}
		const cpuMsPerCall = { helper: round(median(cpu.helper), 3), node: round(median(cpu.node), 3) };

		const bulk = await bulkUpdate(
			service,
			150,
			num('--changes', 200),
			Math.max(1, num('--installations', 20)),
		);
		await control(service, 'DELETE', '/requests');
		const memory = await runMemoryChild(memoryItems);

		const at150 = perItemMs[150];
		const targets = {
			defaultVsOneInFlightAt150: {
				target: '≥ 6',
				value: round(at150.node['1'] / at150.node.default),
				met: at150.node['1'] / at150.node.default >= 6,
			},
			nodeVsHelperAt32At150: {
				target: '≤ 1.25',
				value: round(at150.node['32'] / at150.helper['32']),
				met: at150.node['32'] / at150.helper['32'] <= 1.25,
			},
			cpuNodeVsHelper: {
				target: '≤ 1.3',
				value: round(cpuMsPerCall.node / cpuMsPerCall.helper),
				met: cpuMsPerCall.node / cpuMsPerCall.helper <= 1.3,
			},
			bulkUpdate: {
				target: 'minimum calls, ≤ 20 s',
				value: `${bulk.calls}/${bulk.minimumCalls} calls, ${round(bulk.seconds)} s`,
				met:
					bulk.calls === bulk.minimumCalls &&
					bulk.seconds <= 20 &&
					bulk.allActive &&
					bulk.allApplied,
			},
			heapRetainedMB: { target: '≤ 10', value: round(memory.node), met: memory.node <= 10 },
		};
		const results = {
			perItemMs,
			cpuMsPerCall,
			bulkUpdate: { ...bulk, seconds: round(bulk.seconds) },
			heapRetainedMB: { items: memory.items, node: round(memory.node) },
			defaultItemsInFlight: defaults,
			targets,
			runs,
			setup: {
				node: process.version,
				cpus: cpus().length,
				build: DIST,
				items,
				serialItems,
				repeat,
				cpuCalls,
				date: new Date().toISOString(),
				benchSeconds: 0,
			},
		};
		results.setup.benchSeconds = Math.round((Date.now() - began) / 1000);
		writeFileSync(out, JSON.stringify(results, null, 2) + '\n');

		console.log('\nms per item (median), 200 Installation → Get over HTTPS:');
		const header = ['RTT', 'client', ...IN_FLIGHT.map((c) => `${c} in flight`), 'default'];
		const rows = RTTS.flatMap((rtt) =>
			['ideal', 'helper', 'node'].map((client) => [
				`${rtt} ms`,
				client,
				...IN_FLIGHT.map((c) => String(perItemMs[rtt][client][c])),
				String(perItemMs[rtt][client].default ?? ''),
			]),
		);
		printTable([header, ...rows]);
		console.log(`\nCPU per call: helper ${cpuMsPerCall.helper} ms, node ${cpuMsPerCall.node} ms`);
		console.log(
			`bulk update at 150 ms: ${bulk.calls} calls (${Object.entries(bulk.callsByMethod)
				.map(([m, c]) => `${c} ${m}`)
				.join(
					' + ',
				)}), minimum ${bulk.minimumCalls}, ${round(bulk.seconds)} s; all active again ${bulk.allActive}, all applied ${bulk.allApplied}`,
		);
		console.log(`heap retained after GC, ${memory.items} items: ${round(memory.node)} MB`);
		console.log('\ntargets:');
		for (const [name, t] of Object.entries(targets))
			console.log(`  ${name}: ${t.value} (target ${t.target}) ${t.met ? 'met' : 'NOT met'}`);
		console.log(`\nfigures written to ${path.relative(process.cwd(), out) || out}`);
	} finally {
		controlAgent.destroy();
		harness().releaseN8nResources();
	}
}

function round(value: number, digits = 2): number {
	return Number(value.toFixed(digits));
}

function printTable(rows: string[][]): void {
	const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
	const line = (row: string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
	console.log(line(rows[0]));
	console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
	for (const row of rows.slice(1)) console.log(line(row));
}

(process.argv.includes('--measure') || process.argv.includes('--memory-child')
	? measure()
	: parent()
).catch((err) => {
	console.error(err);
	process.exit(1);
});
