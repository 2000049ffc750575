// Partner mode in real n8n (called from run.mjs while `n8n start` is running):
//
//  1. import the Albato Partner API credential and both partner examples through n8n's CLI
//  2. activate examples/new-customer-onboarding.workflow.json through n8n's REST API and call its
//     webhook for 3 new customers at once; check the emulator: each customer is an end user with
//     their own started installation, one add-user call and at most one token call per customer
//  3. `n8n execute` examples/nightly-pause-resume.workflow.json ("Run now") for 6 prepared customers:
//     5 paused, 1 resumed, at most one token call per customer
//  4. no token (master, session or permanent) in the stored executions

import path from 'node:path';

import { readFile } from 'node:fs/promises';

import { HEADER_CREDENTIAL } from './lib/setup.mjs';

/** The partner credential the partner examples reference. */
export const PARTNER_CREDENTIAL = {
	id: '2',
	name: 'Albato Partner (emulator)',
	type: 'albatoPartnerApi',
};
export const ONBOARDING = {
	id: 'AlbatoPartnerOnb',
	file: 'examples/new-customer-onboarding.workflow.json',
};
/** The Header Auth credential every webhook example is pointed at (the examples ship the webhook disabled). */
export const WEBHOOK_SECRET = HEADER_CREDENTIAL;
export const WEBHOOK_HEADERS = {
	'content-type': 'application/json',
	[WEBHOOK_SECRET.data.name]: WEBHOOK_SECRET.data.value,
};

/** The onboarding example as a user sets it up: the Header Auth credential chosen, the webhook enabled. */
export function enableWebhook(workflow) {
	for (const node of workflow.nodes)
		if (node.type === 'n8n-nodes-base.webhook') {
			if (node.credentials?.httpHeaderAuth?.id !== WEBHOOK_SECRET.id)
				throw new Error(`${node.name}: not protected by the "${WEBHOOK_SECRET.name}" credential`);
			node.disabled = false;
		}
	return workflow;
}
export const NIGHTLY = {
	id: 'AlbatoNightlyRun',
	file: 'examples/nightly-pause-resume.workflow.json',
};
export const TOKEN_CALL = /^\/wl\/[^/]+\/get-user-session-token$/;
export const ADD_USER = /^\/wl\/[^/]+\/add-user$/;
const JWT = /eyJhbGci[\w-]*\.[\w-]+/;

/** Whether `text` holds the master token, or any end-user token (a JWT, or a permanent one). */
export const holdsToken = (text, masterToken) =>
	text.includes(masterToken) || JWT.test(text) || /perm_[0-9a-f]{8}/.test(text);

async function readWorkflow(repoRoot, { id, file }) {
	return { ...JSON.parse(await readFile(path.join(repoRoot, file), 'utf8')), id };
}

/** How many times each partner user id was named in a /wl call matching `pattern`. */
export function callsPerUser(requests, pattern) {
	const counts = {};
	for (const r of requests) {
		if (r.method !== 'POST' || !pattern.test(r.path)) continue;
		const id = String(r.body?.id ?? r.body?.email);
		counts[id] = (counts[id] ?? 0) + 1;
	}
	return counts;
}

/** The partner's own backend: add-user, then a function calling the service as that user. */
export async function customerSession(emulator, partner, customerId) {
	const wl = await fetch(`${emulator.baseUrl}/wl/${partner.name}/add-user`, {
		method: 'POST',
		headers: { authorization: `Basic ${partner.masterToken}`, 'content-type': 'application/json' },
		body: JSON.stringify({ id: customerId }),
	});
	const { data } = await wl.json();
	return async (method, urlPath, body) => {
		const response = await fetch(`${emulator.baseUrl}${urlPath}`, {
			method,
			headers: {
				authorization: `Bearer ${data.sessionToken}`,
				...(body ? { 'content-type': 'application/json' } : {}),
			},
			body: body ? JSON.stringify(body) : undefined,
		});
		if (!response.ok)
			throw new Error(
				`${method} ${urlPath} as ${customerId}: ${response.status} ${await response.text()}`,
			);
		return (await response.json()).data;
	};
}

/** One installation of solution 101 as the customer (`asUser` from customerSession), started or not. */
export async function installFor(asUser, title, started) {
	const installation = await asUser('POST', '/solution/101/installation', {
		title,
		templateIds: [1011],
		credentialData: {
			crm: 'hubspot',
			hubspotPipeline: 'sales',
			hubspotStage: 'new',
			mailer: 'mailchimp',
		},
	});
	if (started) await asUser('PLAY', `/solution/installation/${installation.id}`);
	return installation.id;
}

/** A new user with one installation, started or not. */
export async function prepareCustomer(emulator, partner, customerId, started) {
	const asUser = await customerSession(emulator, partner, customerId);
	return installFor(asUser, `${customerId} – lead sync`, started);
}

/** The partner credential (the emulator's partner) and both partner examples, through n8n's CLI (also used by `npm run dev`). */
export async function importPartnerFixtures(n8n, emulator, repoRoot) {
	const partner = await emulator.control('GET', '/partner');
	const onboarding = enableWebhook(await readWorkflow(repoRoot, ONBOARDING));
	const nightly = await readWorkflow(repoRoot, NIGHTLY);
	await n8n.importCredentials([
		WEBHOOK_SECRET,
		{
			...PARTNER_CREDENTIAL,
			data: {
				baseUrl: emulator.baseUrl,
				partnerName: partner.name,
				masterToken: partner.masterToken,
			},
		},
	]);
	await n8n.importWorkflow(onboarding);
	await n8n.importWorkflow(nightly);
	return {
		partner,
		onboarding,
		nightly,
		ids: [ONBOARDING.id, NIGHTLY.id],
		credential: PARTNER_CREDENTIAL.name,
	};
}

/**
 * Without the header, or with a wrong one, n8n answers 403 and nothing reaches the service.
 * `ignore` names the calls of workflows that run beside it on purpose (an active trigger's polls).
 */
export async function checkWebhookRefused(checks, emulator, url, ignore = () => false) {
	const before = (await emulator.requests()).length;
	const stranger = { customerId: 'e2e-intruder', company: 'Intruder' };
	const statuses = [];
	for (const headers of [
		{ 'content-type': 'application/json' },
		{ 'content-type': 'application/json', [WEBHOOK_SECRET.data.name]: 'guessed' },
	]) {
		const answer = await fetch(url, { method: 'POST', headers, body: JSON.stringify(stranger) });
		await answer.text();
		statuses.push(answer.status);
	}
	checks.equal(
		'the webhook without its header, or with a wrong one → 403 from n8n',
		statuses,
		[403, 403],
	);
	// The executions that were refused never ran: give a stray one time to show before counting.
	await new Promise((resolve) => setTimeout(resolve, 1000));
	const after = await emulator.requests();
	checks.equal(
		'emulator: nothing reached the service from those calls',
		after
			.slice(before)
			.filter((r) => !ignore(r))
			.map((r) => `${r.method} ${r.path}`),
		[],
	);
}
