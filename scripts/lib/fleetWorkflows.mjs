// The bench's workflows: the fan-out examples with a webhook start, and each job's batch nodes.

import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { HEADER_CREDENTIAL } from '../e2e/lib/setup.mjs';
import {
	batchPath,
	fanoutPath,
	IN_FLIGHT,
	JOBS,
	NODE_TYPE,
	PARTNER_CREDENTIAL,
	repoRoot,
	LATENESS_MS,
	SPLIT,
	SWEEP_MAX_RUNS_TOTAL,
	WEEKS,
} from './fleetOptions.mjs';
import { upgradeNode } from './fleetUpgrade.mjs';

/** Whether the built node has the rollout guard (Canary Items, Stop After Failures). */
export function hasRolloutGuard() {
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
	if (job === 'fleetUpgrade') return [upgradeNode(guard)];
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
	if (job === 'fleetSweep') return [sweepNode()];
	return undefined; // nightlyPause: the example's own nodes
}

/**
 * The sweep's node. With `--weeks`, node version 5 (windows of time; each batch its own Sweep
 * Group, its batch number; the bench's lateness); otherwise the memory of runs returned (version 1).
 */
function sweepNode() {
	const parameters = {
		endUserId: '={{ $json.customerId }}',
		resource: 'run',
		operation: 'getNew',
		runsOf: 'endUser',
		groupIntoIncidents: true,
		remindAfterHours: 24,
	};
	if (WEEKS === 0)
		return partnerNode(
			'New failures, as incidents',
			{ ...parameters, options: { maxRunsTotal: SWEEP_MAX_RUNS_TOTAL } },
			[440, 200],
		);
	const node = partnerNode(
		'New failures, as incidents',
		{
			...parameters,
			options: {
				latenessMinutes: LATENESS_MS / 60_000,
				sweepGroup: "={{ $('One batch').first().json.body.batch }}",
			},
		},
		[440, 200],
	);
	return { ...node, typeVersion: 5 };
}

/** One batch: examples/fleet-fanout-batch.workflow.json, its webhook enabled, its nodes for `job`. */
export async function batchWorkflow(job, guard) {
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
export async function fanoutWorkflow(job, webhookBase) {
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
	// The customer list goes straight from the webhook to the Code node: a Set node's expression over
	// 100,000 customers exceeds n8n 2.41's expression memory limit (128 MB, isolated-vm), measured.
	const nodes = example.nodes
		.filter((node) => node.name !== 'Customers')
		.map((node) => {
			if (node === trigger) return start;
			const copy = structuredClone(node);
			if (copy.type === 'n8n-nodes-base.code')
				copy.parameters.jsCode = copy.parameters.jsCode
					.replace(/const size = \d+;/, 'const size = $input.first().json.body.batchSize;')
					.replace('item.json.customers ??', 'item.json.body?.customers ?? item.json.customers ??');
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
		Object.entries(example.connections)
			.filter(([from]) => from !== 'Customers')
			.map(([from, to]) => [
				from === trigger.name ? 'Start' : from,
				from === trigger.name ? example.connections.Customers : to,
			]),
	);
	return { ...example, id: JOBS[job].fanId, name: `Bench: ${job}, fan-out`, nodes, connections };
}
