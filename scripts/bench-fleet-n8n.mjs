// `npm run bench:watch [-- --customers 1000 --rtt 150 --sweeps 5 --out bench-fleet-n8n.json]`
//
// The sweep benchmark: one sweep of Run → Get New over 1,000 customers × 2 automations in the real
// n8n 2.41 (the bench:n8n set-up: scripts/e2e/lib, HTTPS through the loopback delay proxy at a
// 150 ms round trip, the Albato Partner API credential, the node at its defaults), and exactly once
// over 5 sweeps while failed runs are injected between sweeps and during them.
//  - seeding goes straight to the emulator (not through the proxy): each customer is an end user
//    with one installation of solution 101 (templates 1011 and 1012: two automations), one succeeded
//    run per automation;
//  - the workflow: Manual Trigger → Edit Fields (the customer list) → Split Out → Run → Get New
//    (Status: failed), each sweep run by `n8n execute` (a production execution: mode "cli"), the time
//    the node's own executionTime in the run data;
//  - before each sweep a few customers get a failed run; during it, more are recorded while it runs;
//  - a last sweep, with nothing injected, collects what the fifth one could not have seen. Every
//    failed run injected must come out exactly once over all the sweeps.

import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Emulator } from './e2e/lib/emulator.mjs';
import { ensureN8n } from './e2e/lib/install.mjs';
import { N8nInstance } from './e2e/lib/n8n.mjs';
import { killAll, startProcess, waitFor } from './e2e/lib/proc.mjs';
import { rerunWithTrustedCert } from './lib/trustedRerun.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsNode = path.join(repoRoot, 'node_modules', 'ts-node', 'dist', 'bin.js');

function arg(name, fallback) {
	const i = process.argv.indexOf(name);
	return i === -1 ? fallback : process.argv[i + 1];
}
const CUSTOMERS = Number(arg('--customers', 1000));
const RTT = Number(arg('--rtt', 150));
const SWEEPS = Number(arg('--sweeps', 5));
const OUT = path.resolve(arg('--out', 'bench-fleet-n8n.json'));
const NODE = 'New failed runs';
const CREDENTIAL = {
	id: 'BenchPartner1',
	name: 'Albato Partner (bench)',
	type: 'albatoPartnerApi',
};

// ---- seeding, straight to the emulator ---------------------------------------------------------------

async function mapLimited(list, limit, fn) {
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, list.length) }, async () => {
			while (next < list.length) await fn(list[next++]);
		}),
	);
}

async function seed(emulator, partner, ids) {
	const call = async (url, init) => {
		const response = await fetch(`${emulator.baseUrl}${url}`, {
			...init,
			headers: { 'content-type': 'application/json', ...init.headers },
		});
		const json = await response.json();
		if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
		return json.data ?? json;
	};
	const master = { authorization: `Basic ${partner.masterToken}` };
	const users = new Map();
	await mapLimited(ids, 16, async (id) => {
		await call(`/wl/${partner.name}/add-user`, {
			method: 'POST',
			headers: master,
			body: JSON.stringify({ id }),
		});
		const token = await call(`/wl/${partner.name}/get-user-session-token`, {
			method: 'POST',
			headers: master,
			body: JSON.stringify({ id }),
		});
		const installation = await call('/solution/101/installation', {
			method: 'POST',
			headers: { authorization: `Bearer ${token.sessionToken}` },
			body: JSON.stringify({
				title: `Leads of ${id}`,
				templateIds: [1011, 1012],
				credentialData: {
					crm: 'hubspot',
					hubspotPipeline: 'sales',
					hubspotStage: 'new',
					mailer: 'mailchimp',
				},
			}),
		});
		users.set(`${partner.name}:${id}`, { id, installationId: installation.id });
	});
	// Each installation's two automations, from the emulator's state; one succeeded run each.
	const state = await emulator.state();
	const bundles = new Map();
	for (const installation of state.installations) {
		const user = users.get(installation.userId);
		if (user) bundles.set(user.id, installation.bundleIds);
	}
	await mapLimited([...bundles.values()].flat(), 16, async (bundleId) => {
		await emulator.control('POST', '/runs', { bundleId, outcome: 'succeeded' });
	});
	return bundles;
}

// ---- the workflow ------------------------------------------------------------------------------------

function sweepWorkflow(ids) {
	const chain = (to) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	return {
		id: 'BenchFleetSweep1',
		name: `Bench: Run → Get New over ${ids.length} customers`,
		nodes: [
			{
				parameters: {},
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: {
					mode: 'raw',
					jsonOutput: JSON.stringify({ customers: ids.map((customerId) => ({ customerId })) }),
					options: {},
				},
				name: 'Customers',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [200, 0],
			},
			{
				parameters: { fieldToSplitOut: 'customers', options: {} },
				name: 'One item per customer',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [400, 0],
			},
			{
				parameters: {
					authentication: 'partnerApi',
					endUserId: '={{ $json.customerId }}',
					resource: 'run',
					operation: 'getNew',
					filters: { status: 'failed' },
				},
				name: NODE,
				type: 'n8n-nodes-albato-solutions.albatoSolutions',
				typeVersion: 1,
				position: [600, 0],
				credentials: { albatoPartnerApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
				onError: 'continueErrorOutput',
			},
		],
		connections: {
			Start: chain('Customers'),
			Customers: chain('One item per customer'),
			'One item per customer': chain(NODE),
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

// ---- the child ---------------------------------------------------------------------------------------

async function child() {
	const cert = JSON.parse(process.env.BENCH_N8N_CERT);
	const began = Date.now();
	const install = await ensureN8n((line) => console.log(line));
	const emulator = await Emulator.start(repoRoot, {
		args: ['--tls-cert', cert.certFile, '--tls-key', cert.keyFile, '--quiet'],
	});
	const port = new URL(emulator.baseUrl).port;
	let proxyUrl;
	startProcess(
		process.execPath,
		[tsNode, '--transpile-only', 'scripts/lib/delayProxy.ts', port, String(RTT)],
		{
			cwd: repoRoot,
			onLine: (line) => {
				const match = /^PROXY \d+ (\d+)$/.exec(line);
				if (match) proxyUrl = `https://127.0.0.1:${match[1]}`;
			},
		},
	);
	await waitFor('the delay proxy', () => proxyUrl, { timeoutMs: 60_000, intervalMs: 100 });
	const partner = await emulator.control('GET', '/partner');
	const ids = Array.from({ length: CUSTOMERS }, (_, i) => `bench-${String(i).padStart(5, '0')}`);
	const seeding = Date.now();
	const bundles = await seed(emulator, partner, ids);
	console.log(
		`seeded ${ids.length} customers × 2 automations in ${Math.round((Date.now() - seeding) / 1000)} s`,
	);
	console.log(`HTTPS emulator ${emulator.baseUrl}, behind a ${RTT} ms round trip at ${proxyUrl}`);

	const n8n = await N8nInstance.create(install, repoRoot);
	try {
		await n8n.importCredentials([
			{
				...CREDENTIAL,
				data: { baseUrl: proxyUrl, partnerName: partner.name, masterToken: partner.masterToken },
			},
		]);
		await n8n.importWorkflow(sweepWorkflow(ids));

		let rng = 30;
		const random = () => (rng = (rng * 1103515245 + 12345) % 2147483648) / 2147483648;
		const injected = [];
		const inject = async (count) => {
			for (let i = 0; i < count; i++) {
				const id = ids[Math.floor(random() * ids.length)];
				const own = bundles.get(id);
				const run = await emulator.control('POST', '/runs', {
					bundleId: own[Math.floor(random() * own.length)],
					outcome: 'failed',
				});
				injected.push(run.id);
			}
		};
		const returned = [];
		const sweeps = [];
		for (let sweep = 1; sweep <= SWEEPS + 1; sweep++) {
			const last = sweep > SWEEPS;
			if (!last) await inject(20);
			await emulator.control('DELETE', '/requests');
			let running = true;
			const during = (async () => {
				if (last) return;
				await new Promise((resolve) => setTimeout(resolve, 8000)); // n8n's start-up, then inside the sweep
				while (running && injected.length < sweep * 60) {
					await inject(5);
					await new Promise((resolve) => setTimeout(resolve, 1000));
				}
			})();
			const executed = await n8n.execute('BenchFleetSweep1', { timeoutMs: 900_000 });
			running = false;
			await during;
			const task = executed.run?.data.resultData.runData[NODE]?.[0];
			if (!task)
				throw new Error(
					`sweep ${sweep}: no run data (exit ${executed.code})\n${executed.output.slice(-3000)}`,
				);
			const out = (task.data?.main?.[0] ?? []).map((item) => item.json);
			const errors = task.data?.main?.[1] ?? [];
			const requests = (await emulator.requests()).length;
			returned.push(...out.map((run) => run.id));
			const figures = {
				sweep,
				seconds: Math.round(task.executionTime) / 1000,
				returned: out.length,
				customerErrors: errors.length,
				requests,
			};
			sweeps.push(figures);
			console.log(
				`sweep ${sweep}${last ? ' (collects the last injections)' : ''}: ${figures.seconds} s, ${figures.returned} new failed runs, ${figures.customerErrors} customers failed, ${requests} requests`,
			);
		}
		const twice = returned.filter((id, i) => returned.indexOf(id) !== i);
		const missing = injected.filter((id) => !returned.includes(id));
		const slowest = Math.max(...sweeps.map((s) => s.seconds));
		const results = {
			customers: CUSTOMERS,
			automationsPerCustomer: 2,
			rttMs: RTT,
			sweeps,
			injected: injected.length,
			returned: returned.length,
			returnedTwice: twice.length,
			missing: missing.length,
			targets: {
				sweepSeconds: { target: '≤ 60', value: slowest },
				exactlyOnce: {
					target: '0 twice, 0 missing',
					value: `${twice.length} twice, ${missing.length} missing`,
				},
			},
			setup: {
				n8n: install.root,
				date: new Date().toISOString(),
				benchSeconds: Math.round((Date.now() - began) / 1000),
			},
		};
		await writeFile(OUT, `${JSON.stringify(results, null, 2)}\n`);
		console.log(
			`\nslowest sweep ${slowest} s (target ≤ 60); ${injected.length} failed runs injected, ${returned.length} returned, ${twice.length} twice, ${missing.length} missing; figures in ${path.relative(process.cwd(), OUT) || OUT}`,
		);
		if (twice.length || missing.length || slowest > 60) process.exitCode = 1;
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
