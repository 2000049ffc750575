// `npm run bench:n8n [-- --out bench-n8n.json] [--items 200] [--rtt 150] [--rate-limit 10] [--extra-in-flight 32,64]`
//
// Our node next to n8n's own HTTP Request node, both at their defaults, inside the real n8n 2.41
// of the e2e run (scripts/e2e/lib; set up once per machine), over HTTPS with a 150 ms round trip:
//  - a throw-away CA and certificate (scripts/lib/tlsCert.ts, Debian's openssl), trusted by this
//    script's child and the n8n processes only, through NODE_EXTRA_CA_CERTS;
//  - the emulator serving HTTPS, behind the loopback delay proxy (scripts/lib/delayProxy.ts);
//  - two workflows, Manual Trigger → Edit Fields (200 ids) → Split Out → the node under test
//    (Installation → Get, or HTTP Request GET /solution/installation/{id} with the same credential);
//  - each run by `n8n execute`; the time is the node's own executionTime in the run data, so n8n's
//    start-up does not count;
//  - our node at Items in Flight 32 and 64 too (extra keys `nodeAt32`, `nodeAt64`; `--extra-in-flight`),
//    to show what raising it gives;
//  - then again with the emulator rate-limiting: at most `--rate-limit` requests served at once,
//    each taking 50 ms (so concurrency is real), 429 + Retry-After: 1 above that;
//  - and a run of 5 items at defaults, with a rate limit too high to refuse anything (1000 at
//    once, 50 ms each): the emulator's peak of requests served at once must stay ≤ 8 (slow start).
// `failed` counts the items that did not come out of the node (a node that stops on an error
// outputs none).

import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Emulator } from './e2e/lib/emulator.mjs';
import { ensureN8n } from './e2e/lib/install.mjs';
import { N8nInstance } from './e2e/lib/n8n.mjs';
import { killAll } from './e2e/lib/proc.mjs';
import { CREDENTIAL } from './e2e/lib/setup.mjs';
import { startDelayProxy } from './lib/startDelayProxy.mjs';
import { rerunWithTrustedCert } from './lib/trustedRerun.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function arg(name, fallback) {
	const i = process.argv.indexOf(name);
	return i === -1 ? fallback : process.argv[i + 1];
}
const ITEMS = Number(arg('--items', 200));
const RTT = Number(arg('--rtt', 150));
const RATE_LIMIT = Number(arg('--rate-limit', 10));
const SMALL = 5;
const OUT = path.resolve(arg('--out', 'bench-n8n.json'));
// Extra runs of our node at these Items in Flight (keys nodeAt32, nodeAt64): what raising it gives.
const EXTRA = String(arg('--extra-in-flight', '32,64')).split(',').filter(Boolean).map(Number);
const NODES = {
	node: 'Albato Solutions',
	httpRequest: 'HTTP Request',
	...Object.fromEntries(EXTRA.map((n) => [`nodeAt${n}`, 'Albato Solutions'])),
};

// ---- the workflows ---------------------------------------------------------------------------------

function workflow(id, name, nodeUnderTest, count = ITEMS) {
	const ids = Array.from({ length: count }, (_, i) => 5001 + (i % 2)); // user-1's installations
	const nodes = [
		{
			parameters: {},
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
		},
		{
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ ids }), options: {} },
			name: 'Ids',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
		},
		{
			parameters: { fieldToSplitOut: 'ids', options: {} },
			name: 'One item per id',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [400, 0],
		},
		{ ...nodeUnderTest, position: [600, 0] },
	];
	const chain = (from, to) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	return {
		id,
		name,
		nodes,
		connections: {
			Start: chain('Start', 'Ids'),
			Ids: chain('Ids', 'One item per id'),
			'One item per id': chain('One item per id', nodeUnderTest.name),
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

const credentials = { albatoSolutionsApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };

// Our node at its defaults (no Request Options), or at `inFlight` Items in Flight.
const ourNode = (inFlight) => ({
	name: NODES.node,
	type: 'n8n-nodes-albato-solutions.albatoSolutions',
	typeVersion: 1,
	parameters: {
		resource: 'installation',
		operation: 'get',
		installationId: { __rl: true, mode: 'id', value: '={{ $json.ids }}' },
		...(inFlight ? { requestOptions: { concurrency: inFlight } } : {}),
	},
	credentials,
});

// n8n's HTTP Request node at its defaults, authenticated with the same credential (its `authenticate`).
const httpRequestNode = (baseUrl) => ({
	name: NODES.httpRequest,
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters: {
		url: `=${baseUrl}/solution/installation/{{ $json.ids }}`,
		authentication: 'predefinedCredentialType',
		nodeCredentialType: 'albatoSolutionsApi',
		options: {},
	},
	credentials,
});

// ---- one measurement ---------------------------------------------------------------------------------

async function measure(n8n, workflowId, nodeName, items = ITEMS) {
	const executed = await n8n.execute(workflowId, { timeoutMs: 600_000 });
	if (!executed.run)
		throw new Error(
			`n8n execute ${workflowId}: no run data (exit ${executed.code})\n${executed.output.slice(-3000)}`,
		);
	const task = executed.run.data.resultData.runData[nodeName]?.[0];
	if (!task)
		throw new Error(
			`${nodeName} did not run:\n${JSON.stringify(executed.run.data.resultData.error ?? {}).slice(0, 1000)}`,
		);
	const out = task.data?.main?.[0] ?? [];
	const succeeded = out.filter((item) => item.json && item.json.error === undefined).length;
	const result = { seconds: Math.round(task.executionTime) / 1000, failed: items - succeeded };
	if (task.error) result.error = String(task.error.message ?? task.error).slice(0, 200);
	return result;
}

// ---- the child: emulator, proxy, n8n --------------------------------------------------------------

/** One measured run of a bench workflow, with the requests it sent and how many were answered 429. */
async function measureOnce({ n8n, emulator }, label, key, workflowId) {
	await emulator.control('DELETE', '/requests');
	const result = await measure(n8n, workflowId, NODES[key]);
	const log = await emulator.requests();
	result.requests = log.length;
	result.rateLimited = log.filter((entry) => entry.status === 429).length;
	console.log(
		`${label ? `${label} ` : ''}${key}: ${result.seconds} s, ${result.failed} failed, ${result.requests} requests (${result.rateLimited} answered 429)${result.error ? `; error: ${result.error}` : ''}`,
	);
	return result;
}

/** The Access Token credential (through the proxy) and the bench workflows. */
async function importBench(n8n, emulator, proxyUrl) {
	await n8n.importCredentials([
		{ ...CREDENTIAL, data: { baseUrl: proxyUrl, accessToken: emulator.token } },
	]);
	await n8n.importWorkflow(
		workflow('BenchAlbatoNode', `Bench: ${ITEMS} Gets, Albato Solutions node`, ourNode()),
	);
	for (const n of EXTRA)
		await n8n.importWorkflow(
			workflow(
				`BenchAlbatoAt${n}`,
				`Bench: ${ITEMS} Gets, Albato Solutions node, ${n} in flight`,
				ourNode(n),
			),
		);
	await n8n.importWorkflow(
		workflow('BenchAlbatoSmall', `Bench: ${SMALL} Gets, Albato Solutions node`, ourNode(), SMALL),
	);
	await n8n.importWorkflow(
		workflow(
			'BenchHttpRequest',
			`Bench: ${ITEMS} Gets, HTTP Request node`,
			httpRequestNode(proxyUrl),
		),
	);
}

/** The figures written to OUT: every run, the targets, the set-up. */
function resultsOf(runs, small, { install, began }) {
	return {
		rttMs: RTT,
		items: ITEMS,
		node: runs.node,
		httpRequest: runs.httpRequest,
		// Extra: what raising Items in Flight gives.
		...Object.fromEntries(EXTRA.map((n) => [`nodeAt${n}`, runs[`nodeAt${n}`]])),
		rateLimited: runs.rateLimited,
		targets: {
			nodeVsHttpRequest: {
				target: '≤ 1.25',
				value: Math.round((runs.node.seconds / runs.httpRequest.seconds) * 100) / 100,
			},
			nodeFailedUnderRateLimit: { target: 0, value: runs.rateLimited.node.failed },
			smallRunPeakInFlight: { target: '≤ 8', items: SMALL, value: small.peakInFlight },
			...Object.fromEntries(
				EXTRA.map((n) => [
					`nodeAt${n}VsHttpRequest`,
					{
						value: Math.round((runs[`nodeAt${n}`].seconds / runs.httpRequest.seconds) * 100) / 100,
					},
				]),
			),
		},
		setup: {
			n8n: install.root,
			rateLimit: { maxConcurrent: RATE_LIMIT, retryAfterSeconds: 1, serviceMs: 50 },
			date: new Date().toISOString(),
			benchSeconds: Math.round((Date.now() - began) / 1000),
		},
	};
}

async function child() {
	const cert = JSON.parse(process.env.BENCH_N8N_CERT);
	const began = Date.now();
	const install = await ensureN8n((line) => console.log(line));
	const emulator = await Emulator.start(repoRoot, {
		args: ['--tls-cert', cert.certFile, '--tls-key', cert.keyFile, '--quiet'],
	});
	const { proxyUrl } = await startDelayProxy(emulator, RTT);
	console.log(`HTTPS emulator ${emulator.baseUrl}, behind a ${RTT} ms round trip at ${proxyUrl}`);

	const n8n = await N8nInstance.create(install, repoRoot);
	try {
		await importBench(n8n, emulator, proxyUrl);

		const runs = {};
		const once = (label, key, workflowId) => measureOnce({ n8n, emulator }, label, key, workflowId);
		// A small run: how many requests were served at once (the emulator's peak), never more than 8.
		await emulator.control('POST', '/rate-limit', { maxConcurrent: 1000, serviceMs: 50 });
		await emulator.control('DELETE', '/requests');
		const small = await measure(n8n, 'BenchAlbatoSmall', NODES.node, SMALL);
		small.peakInFlight = (await emulator.control('GET', '/rate-limit')).peak;
		await emulator.control('DELETE', '/rate-limit');
		console.log(`${SMALL} items: ${small.seconds} s, at most ${small.peakInFlight} in flight`);
		runs.node = await once('', 'node', 'BenchAlbatoNode');
		runs.httpRequest = await once('', 'httpRequest', 'BenchHttpRequest');
		for (const n of EXTRA) runs[`nodeAt${n}`] = await once('', `nodeAt${n}`, `BenchAlbatoAt${n}`);
		await emulator.control('POST', '/rate-limit', {
			maxConcurrent: RATE_LIMIT,
			retryAfterSeconds: 1,
			serviceMs: 50,
		});
		runs.rateLimited = {
			node: await once(`rate limit ${RATE_LIMIT}:`, 'node', 'BenchAlbatoNode'),
			httpRequest: await once(`rate limit ${RATE_LIMIT}:`, 'httpRequest', 'BenchHttpRequest'),
		};
		for (const n of EXTRA)
			runs.rateLimited[`nodeAt${n}`] = await once(
				`rate limit ${RATE_LIMIT}:`,
				`nodeAt${n}`,
				`BenchAlbatoAt${n}`,
			);
		runs.rateLimited.emulator = await emulator.control('GET', '/rate-limit');

		const results = resultsOf(runs, small, { install, began });
		await writeFile(OUT, `${JSON.stringify(results, null, 2)}\n`);
		console.log(
			`\nnode / HTTP Request: ${results.targets.nodeVsHttpRequest.value}× (target ≤ 1.25); node items failed under the rate limit: ${runs.rateLimited.node.failed} (target 0); ${SMALL}-item run: at most ${small.peakInFlight} in flight (target ≤ 8)`,
		);
		console.log(
			`figures written to ${path.relative(process.cwd(), OUT) || OUT}; ${results.setup.benchSeconds} s in all`,
		);
	} finally {
		await rm(n8n.userFolder, { recursive: true, force: true });
		await killAll();
	}
}

(process.env.BENCH_N8N_CERT ? child() : rerunWithTrustedCert(import.meta.url)).catch(
	async (error) => {
		console.error(error);
		await killAll();
		process.exit(1);
	},
);
