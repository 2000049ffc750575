// In real n8n (called while `n8n start` runs, after the partner checks imported the
// Albato Partner API credential): examples/connect-by-link.workflow.json, active.
//
//  1. its webhook without the Header Auth secret is refused by n8n, and nothing reaches the service
//  2. with the secret: End User → Create → Create Link → the caller gets the link
//  3. the customer "connects" (the emulator's control call completes the link); the Wait loop sees
//     it through Get Link Status → Installation → Create with that credentialId → Start
//  4. the emulator: a started installation using the linked connection, and only the calls the
//     requests docs/operations.md lists for those operations
//  5. the link token appears nowhere in the stored executions or n8n's log except inside the link

import { readFile } from 'node:fs/promises';

import { waitFor } from './lib/proc.mjs';
import { readExample, WORKFLOWS } from './lib/setup.mjs';
import {
	activateWorkflow,
	callWebhook,
	checkRefusedWithoutSecret,
	deactivateWorkflow,
	SECRET_HEADER,
	webhookPathOf,
} from './lib/webhook.mjs';

const LINK = /^https:\/\/connect\.integrations-hub\.com\?id=(\d+)&token=([^&\s"]+)$/;
const outputs = (runData, name) =>
	(runData[name] ?? []).flatMap((run) => (run.data?.main?.[0] ?? []).map((item) => item.json));

/** The calls a customer's flow may send (docs/operations.md: End User → Create, Credential → Create
 * Link / Get Link Status, Installation → Create / Start), and those it must send exactly once. */
function expectedCalls(partnerName, sharingId, installationId) {
	const once = [
		`POST /wl/${partnerName}/add-user`,
		'POST /credentials/grant-access-sharing',
		'POST /solution/101/installation',
		`PLAY /solution/installation/${installationId}`,
	];
	const allowed = [
		...once,
		`POST /wl/${partnerName}/get-user-session-token`,
		// End User → Create reads the new user's profile when add-user's answer lacks its language and
		// offset, so a first delivery and a repeat give the same fields.
		`POST /wl/${partnerName}/get-user-profile`,
		`GET /credentials/grant-access-sharing/${sharingId}`,
		'GET /solution/101/credentialists',
		'GET /solution/installation',
	];
	return { once, allowed };
}

/** The customer owns one started installation on the new connection; only the documented calls were sent. */
async function checkServiceSide(
	checks,
	emulator,
	{ partner, customer, linkId, installed, credential },
) {
	const sub = `${partner.name}:${customer.customerId}`;
	const state = await emulator.state();
	const owned = state.installations.filter((i) => i.userId === sub);
	checks.ok(
		`emulator: the customer owns one installation (${installed.id}), started, its crm = credential ${credential.id}`,
		owned.length === 1 &&
			owned[0].id === installed.id &&
			owned[0].status === 1 &&
			String(owned[0].credentialData.crm) === String(credential.id),
		JSON.stringify(owned),
	);
	const calls = (await emulator.requests())
		.filter((r) => r.user === sub || r.body?.id === customer.customerId)
		.map((r) => `${r.method} ${r.path}`);
	const { once, allowed } = expectedCalls(partner.name, linkId, installed.id);
	checks.ok(
		'emulator: only the documented calls for these operations, the writes once each',
		calls.every((call) => allowed.includes(call)) &&
			once.every((call) => calls.filter((c) => c === call).length === 1),
		calls.join('\n'),
	);
}

/** The id of the workflow's latest execution once it finished (throws unless it succeeded). */
function finishedExecution(n8n, id) {
	return waitFor(
		'a finished "connect by link" execution',
		async () => {
			const [latest] = await n8n.executions(id);
			if (latest && !['running', 'waiting', 'new'].includes(latest.status)) {
				if (latest.status !== 'success') throw new Error(`execution ${latest.status}`);
				return latest.id;
			}
			return undefined;
		},
		{ timeoutMs: 60_000, intervalMs: 1000 },
	);
}

/** The token: only inside the link given to the caller (and the Create Link output holding it). */
async function checkTokenHidden(checks, n8n, execution, link, token) {
	const stored = JSON.stringify(execution).split(link).join('');
	const log = await readFile(n8n.logFile, 'utf8');
	checks.ok(
		'the link token is in no stored execution data except inside the link',
		JSON.stringify(execution).includes(link) && !stored.includes(token),
	);
	checks.ok("the link token is not in n8n's log", !log.split(link).join('').includes(token));
}

export async function checkConnectByLink(checks, n8n, emulator, repoRoot, { partner, ignore }) {
	const { id } = WORKFLOWS.connectByLink;
	const workflow = await readExample(repoRoot, 'connectByLink');
	const webhookPath = webhookPathOf(workflow);
	const customer = { customerId: 'e2e-linked', company: 'Linkwise' };
	const sub = `${partner.name}:${customer.customerId}`;
	await checks.step('activate "connect by link" (REST)', () => activateWorkflow(n8n, id));

	await checkRefusedWithoutSecret({ checks, n8n, emulator, ignore }, webhookPath, customer);

	const answer = await checks.step('webhook with the secret → 200 and a link', async () => {
		const called = await callWebhook(n8n, webhookPath, customer, SECRET_HEADER);
		if (called.status !== 200 || !LINK.test(called.json?.link ?? ''))
			throw new Error(`${called.status} ${called.text.slice(0, 500)}`);
		return called.json;
	});
	const [, linkId, token] = LINK.exec(answer.link);
	checks.ok(
		'the answer: link, its sharing id and expiresAt (48 h)',
		String(answer.sharingId) === linkId && Number.isFinite(Date.parse(answer.expiresAt)),
		JSON.stringify({ ...answer, link: '…' }),
	);
	const links = await emulator.control('GET', '/links');
	const link = links.find((l) => String(l.id) === linkId);
	checks.ok(
		"emulator: the sharing is the customer's, waiting",
		link?.userId === sub && link.credentialId === null,
		JSON.stringify(links),
	);

	// The customer opens the link and connects their CRM.
	const { credential } = await emulator.control('POST', `/links/${linkId}/complete`, {});
	const executionId = await checks.step(
		'the Wait loop sees the connection and the execution ends with success',
		() => finishedExecution(n8n, id),
	);
	const execution = await n8n.execution(executionId);
	const runData = execution.data.resultData.runData;
	const statuses = outputs(runData, 'Get link status').map((s) => s.state);
	checks.ok(
		'Get Link Status: waiting until the customer connected, then connected',
		statuses.at(-1) === 'connected' && statuses.slice(0, -1).every((s) => s === 'waiting'),
		JSON.stringify(statuses),
	);
	const installed = outputs(runData, 'Install with the connection')[0] ?? {};
	checks.equal('Start → status 1', outputs(runData, 'Start')[0]?.status, 1);

	await checkServiceSide(checks, emulator, { partner, customer, linkId, installed, credential });
	await checkTokenHidden(checks, n8n, execution, answer.link, token);
	await deactivateWorkflow(n8n, id);
}
