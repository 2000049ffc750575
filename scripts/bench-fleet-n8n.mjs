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
import { killAll } from './e2e/lib/proc.mjs';
import { rerunWithTrustedCert } from './lib/trustedRerun.mjs';
import { startDelayProxy } from './lib/startDelayProxy.mjs';
import { mapLimited } from './lib/fleetBench.mjs';
import { CREDENTIAL, NODE, sweepWorkflow } from './lib/benchSweepWorkflow.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function arg(name, fallback) {
	const i = process.argv.indexOf(name);
	return i === -1 ? fallback : process.argv[i + 1];
}
const CUSTOMERS = Number(arg('--customers', 1000));
const RTT = Number(arg('--rtt', 150));
const SWEEPS = Number(arg('--sweeps', 5));
const OUT = path.resolve(arg('--out', 'bench-fleet-n8n.json'));

// ---- seeding, straight to the emulator ---------------------------------------------------------------

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

/** Injects failed runs at random automations of random customers (a fixed seed); their ids go to `injected`. */
function injectorOf(emulator, { ids, bundles }, injected) {
	let rng = 30;
	const random = () => (rng = (rng * 1103515245 + 12345) % 2147483648) / 2147483648;
	return async (count) => {
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
}

/**
 * One sweep (`n8n execute`), with failed runs injected before it and, but for the last, during it.
 * `run`: { n8n, emulator, inject, injected, returned }; the runs it returned go to `returned`.
 */
async function oneSweep({ n8n, emulator, inject, injected, returned }, sweep) {
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
	console.log(
		`sweep ${sweep}${last ? ' (collects the last injections)' : ''}: ${figures.seconds} s, ${figures.returned} new failed runs, ${figures.customerErrors} customers failed, ${requests} requests`,
	);
	return figures;
}

/** The figures written to OUT, and what the targets read: runs returned twice, missing, the slowest sweep. */
function resultsOf({ injected, returned, sweeps }, { install, began }) {
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
	return { results, twice, missing, slowest };
}

async function child() {
	const cert = JSON.parse(process.env.BENCH_N8N_CERT);
	const began = Date.now();
	const install = await ensureN8n((line) => console.log(line));
	const emulator = await Emulator.start(repoRoot, {
		args: ['--tls-cert', cert.certFile, '--tls-key', cert.keyFile, '--quiet'],
	});
	const { proxyUrl } = await startDelayProxy(emulator, RTT);
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

		const injected = [];
		const inject = injectorOf(emulator, { ids, bundles }, injected);
		const returned = [];
		const sweeps = [];
		for (let sweep = 1; sweep <= SWEEPS + 1; sweep++) {
			const figures = await oneSweep({ n8n, emulator, inject, injected, returned }, sweep);
			sweeps.push(figures);
		}
		const { results, twice, missing, slowest } = resultsOf(
			{ injected, returned, sweeps },
			{ install, began },
		);
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
