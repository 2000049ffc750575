// `npm run e2e:queue`, overlapping sweeps: the fleet-watch example's Run → Get New over
// QUEUE_E2E_WATCH_CUSTOMERS (20) customers, started twice at the same moment through the webhook
// processor, so that two executions sweep the same customers at once on the workers. Runs are
// injected before each pair (a failed and a successful run per customer), over 3 rounds; the list
// answers 150 ms late, so each sweep takes seconds. Then the overlap guarantee of
// docs/runs.md: over both executions of every pair, no run returned twice and none lost (each ended
// run of these customers exactly once), and a last sweep on its own returns nothing.
//
// The workflow is examples/fleet-watch.workflow.json with its schedule (and manual trigger)
// replaced by a webhook answering at once, its customer list given here, and Group Into Incidents
// off, so that each run is an item and can be counted.
//
// Then the example as it is (Group Into Incidents on), as a second workflow: pairs of sweeps at
// once again, while the first automation of every customer fails, fails again and recovers. A
// queue-mode worker gets no static data from n8n 2.41 (docs/scaling.md), so this is where incidents
// must open once, stay quiet and resolve once from the run history and the gate alone.

import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { waitFor } from './lib/proc.mjs';
import { customerSession, installFor } from './partner.mjs';

export const WATCH_CUSTOMERS = Number(process.env.QUEUE_E2E_WATCH_CUSTOMERS) || 20;
export const WATCH_ROUNDS = 3;
export const WATCH = {
	id: 'QueueFleetWatch1',
	webhookPath: 'albato-queue-fleet-watch',
	webhookId: '6f0c1c7e-3d1e-4c55-9a43-5b7a7f2f0a77',
};
export const WATCH_INCIDENTS = {
	id: 'QueueFleetIncidents1',
	webhookPath: 'albato-queue-fleet-incidents',
	webhookId: '0b7d2f61-52a4-4f0e-8d59-1c1f3e9a6b21',
};
const GET_NEW = 'New failures, as incidents';
const customerId = (i) => `queue-watch-${String(i + 1).padStart(3, '0')}`;

/**
 * The fleet-watch example, started by a webhook instead of its schedule: returning runs, or as it
 * is (incidents).
 */
export async function watchWorkflow(repoRoot, { incidents = false } = {}) {
	const target = incidents ? WATCH_INCIDENTS : WATCH;
	const example = JSON.parse(
		await readFile(path.join(repoRoot, 'examples/fleet-watch.workflow.json'), 'utf8'),
	);
	const triggers = example.nodes.filter((node) => /scheduleTrigger|manualTrigger/.test(node.type));
	const nodes = example.nodes
		.filter((node) => !triggers.includes(node))
		.map((node) => {
			if (node.name === 'Customers')
				return {
					...node,
					parameters: {
						...node.parameters,
						jsonOutput: JSON.stringify({
							customers: Array.from({ length: WATCH_CUSTOMERS }, (_, i) => ({
								customerId: customerId(i),
							})),
						}),
					},
				};
			if (node.name !== GET_NEW) return node; // at version 4: real time (lib/setup.mjs)
			const groupIntoIncidents = incidents && node.parameters.groupIntoIncidents;
			return { ...node, typeVersion: 4, parameters: { ...node.parameters, groupIntoIncidents } };
		});
	nodes.push({
		parameters: {
			httpMethod: 'POST',
			path: target.webhookPath,
			responseMode: 'onReceived',
			options: {},
		},
		name: 'Sweep now',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 300],
		webhookId: target.webhookId,
	});
	const connections = Object.fromEntries(
		Object.entries(example.connections).filter(([from]) => !triggers.some((t) => t.name === from)),
	);
	connections['Sweep now'] = { main: [[{ node: 'Customers', type: 'main', index: 0 }]] };
	return {
		...example,
		id: target.id,
		name: `Queue e2e – fleet watch${incidents ? ' (incidents)' : ''}, two sweeps at once`,
		nodes,
		connections,
	};
}

const finished = (e) => e.status !== 'running' && e.status !== 'new' && e.stoppedAt;

async function watchExecutions(n8n, workflowId = WATCH.id) {
	return (await n8n.executions(workflowId))
		.filter(finished)
		.sort((a, b) => Number(a.id) - Number(b.id));
}

/** The runs one execution returned (output 0 of Get New), and its error output. */
async function returnedBy(n8n, id) {
	const execution = await n8n.execution(id);
	const main = execution.data.resultData.runData[GET_NEW]?.[0]?.data?.main ?? [];
	return {
		runs: (main[0] ?? []).map((item) => item.json),
		errors: (main[1] ?? []).map((item) => item.json),
	};
}

/** Runs `fn` while every run list answers 150 ms late (so that a sweep takes seconds). */
async function withSlowRunLists(emulator, fn) {
	await emulator.control('POST', '/faults', {
		method: 'GET',
		path: '/bundle/events',
		times: 100000,
		delayMs: 150,
	});
	try {
		return await fn();
	} finally {
		await emulator.control('DELETE', '/faults');
	}
}

/** Two webhook calls at once; answers the two executions they started, once both finished. */
async function sweepTwiceAtOnce(checks, { n8n, post, url, workflowId, label }) {
	const before = (await watchExecutions(n8n, workflowId)).length;
	const answers = await Promise.all([post(url, {}), post(url, {})]);
	checks.ok(
		`${label}: two webhook calls at once → both accepted`,
		answers.every((r) => r.status === 200),
		() => answers.map((r) => `${r.status} ${r.text.slice(0, 200)}`).join('\n'),
	);
	return await checks.step(`${label}: both sweeps finished`, () =>
		waitFor(
			`${label}: the two sweeps`,
			async () => {
				const all = await watchExecutions(n8n, workflowId);
				return all.length >= before + 2 ? all.slice(before, before + 2) : undefined;
			},
			{ timeoutMs: 180_000, intervalMs: 1000 },
		),
	);
}

/**
 * `workerOf(id)`: the worker that ran execution `id` (from the workers' logs). `post(url, body)`.
 */
export async function checkOverlappingSweeps(
	checks,
	{ emulator, partner, n8n, webhookBase, post, workerOf },
) {
	const bundles = {};
	await checks.step(
		`${WATCH_CUSTOMERS} customers, each with one started installation`,
		async () => {
			for (let i = 0; i < WATCH_CUSTOMERS; i++) {
				const asUser = await customerSession(emulator, partner, customerId(i));
				const installationId = await installFor(asUser, `${customerId(i)} – lead sync`, true);
				const state = await emulator.state();
				for (const bundleId of state.installations.find((inst) => inst.id === installationId)
					.bundleIds)
					bundles[bundleId] = customerId(i);
			}
		},
	);
	const url = `${webhookBase}/webhook/${WATCH.webhookPath}`;
	const pairs = [];
	await withSlowRunLists(emulator, async () => {
		for (let round = 1; round <= WATCH_ROUNDS; round++) {
			for (const bundleId of Object.keys(bundles))
				for (const outcome of ['failed', 'succeeded'])
					await emulator.control('POST', '/runs', { bundleId: Number(bundleId), outcome });
			const pair = await sweepTwiceAtOnce(checks, {
				n8n,
				post,
				url,
				workflowId: WATCH.id,
				label: `round ${round}`,
			});
			if (!pair) return;
			pairs.push(pair);
		}
	});

	const results = [];
	for (const pair of pairs)
		for (const execution of pair)
			results.push({
				execution,
				worker: await workerOf(execution.id),
				...(await returnedBy(n8n, execution.id)),
			});
	console.log(
		`    sweeps: ${results
			.map((r) => `#${r.execution.id} ${r.worker ?? '?'} ${r.runs.length} runs`)
			.join(', ')}`,
	);
	checks.ok(
		`all ${results.length} sweeps succeeded, no customer on the error output`,
		results.every((r) => r.execution.status === 'success' && r.errors.length === 0),
		() =>
			JSON.stringify(
				results.map((r) => [r.execution.id, r.execution.status, r.errors.slice(0, 2)]),
			),
	);
	const overlapped = pairs.filter(
		([a, b]) =>
			Date.parse(a.startedAt) < Date.parse(b.stoppedAt) &&
			Date.parse(b.startedAt) < Date.parse(a.stoppedAt),
	);
	checks.equal('the two sweeps of every round overlapped in time', overlapped.length, pairs.length);
	const split = pairs.filter(([a, b]) => {
		const [wa, wb] = [a, b].map((e) => results.find((r) => r.execution.id === e.id)?.worker);
		return wa && wb && wa !== wb;
	});
	console.log(`    pairs on two different workers: ${split.length} of ${pairs.length}`);
	checks.ok(
		'at least one round ran its two sweeps on two different workers',
		split.length > 0,
		'every pair landed on one worker: the rounds prove overlap, not across workers',
	);

	const returned = results.flatMap((r) => r.runs);
	const ids = returned.map((run) => run.id);
	const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
	checks.equal('no run returned twice across both executions of any round', twice, []);
	const all = (await emulator.control('GET', '/runs')).filter((run) => run.bundleId in bundles);
	const missing = all.filter((run) => !ids.includes(run.id)).map((run) => run.id);
	checks.equal(
		`none lost: the ${all.length} runs injected were returned (${ids.length} returned)`,
		missing,
		[],
	);
	const foreign = returned.filter((run) => bundles[run.bundleId] !== run.endUserId);
	checks.equal('each run returned for its own customer (endUserId)', foreign.length, 0);
	const perRound = pairs.map((pair) =>
		pair
			.map((e) => results.find((r) => r.execution.id === e.id).runs.length)
			.reduce((a, b) => a + b, 0),
	);
	checks.equal(
		`each round returned exactly its ${2 * Object.keys(bundles).length} new runs, between its two sweeps`,
		perRound,
		pairs.map(() => 2 * Object.keys(bundles).length),
	);

	// One more sweep on its own: the memory both left behind holds every run.
	const before = (await watchExecutions(n8n)).length;
	await post(url, {});
	const last = await checks.step('a last sweep on its own finished', () =>
		waitFor('the last sweep', async () => (await watchExecutions(n8n))[before], {
			timeoutMs: 120_000,
			intervalMs: 1000,
		}),
	);
	if (last) {
		const { runs } = await returnedBy(n8n, last.id);
		checks.equal('the last sweep returns nothing (nothing new, nothing again)', runs.length, 0);
	}
	return { sweeps: results.length + (last ? 1 : 0), bundles };
}

/**
 * Incidents in queue mode: pairs of sweeps at once of the example as it is, while the first
 * automation of every customer (`bundles`: bundle id → customer, from checkOverlappingSweeps)
 * fails, fails again and recovers. Answers the number of sweeps.
 */
export async function checkOverlappingIncidents(
	checks,
	{ emulator, n8n, webhookBase, post, workerOf, bundles },
) {
	const url = `${webhookBase}/webhook/${WATCH_INCIDENTS.webhookPath}`;
	const first = new Map(); // customer → its first automation
	for (const [bundleId, customer] of Object.entries(bundles))
		if (!first.has(customer) || Number(bundleId) < first.get(customer))
			first.set(customer, Number(bundleId));
	const record = async (outcome) => {
		for (const bundleId of first.values())
			await emulator.control('POST', '/runs', { bundleId, outcome });
	};
	const steps = [
		['the first sweeps (every automation succeeded last)', null, []],
		['one failure each', 'failed', ['incidentOpened 1']],
		['another failure each', 'failed', []],
		['a success each', 'succeeded', ['incidentResolved 2']],
	];
	let sweeps = 0;
	const workers = new Set();
	await withSlowRunLists(emulator, async () => {
		for (const [name, outcome, expected] of steps) {
			if (outcome) await record(outcome);
			const pair = await sweepTwiceAtOnce(checks, {
				n8n,
				post,
				url,
				workflowId: WATCH_INCIDENTS.id,
				label: name,
			});
			if (!pair) return;
			sweeps += 2;
			const items = [];
			for (const execution of pair) {
				workers.add(await workerOf(execution.id));
				const { runs, errors } = await returnedBy(n8n, execution.id);
				checks.ok(
					`${name}: sweep #${execution.id} succeeded, no customer on the error output`,
					execution.status === 'success' && errors.length === 0,
					() => JSON.stringify([execution.status, errors.slice(0, 2)]),
				);
				items.push(...runs);
			}
			const got = items
				.map((item) => `${item.endUserId} ${item.bundleId} ${item.event} ${item.failedRuns}`)
				.sort();
			const want = [...first.entries()]
				.flatMap(([customer, bundleId]) =>
					expected.map((event) => `${customer} ${bundleId} ${event}`),
				)
				.sort();
			checks.equal(
				`${name}: across both sweeps, ${want.length} incident items, each once`,
				got,
				want,
			);
		}
	});
	console.log(`    incident sweeps ran on: ${[...workers].join(', ')}`);
	return sweeps;
}
