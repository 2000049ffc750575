// Partner mode end to end: the onboarding webhook for three customers at once, the nightly pause and
// resume through `n8n execute`, and no secret in what n8n stored (run.mjs, compat.mjs).
import { waitFor } from './lib/proc.mjs';
import {
	ADD_USER,
	NIGHTLY,
	ONBOARDING,
	TOKEN_CALL,
	WEBHOOK_HEADERS,
	callsPerUser,
	checkWebhookRefused,
	holdsToken,
	importPartnerFixtures,
	prepareCustomer,
} from './partner.mjs';

/** The onboarding webhook called for every customer at once; gives the answers. */
function callOnboarding(n8n, webhookPath, customers) {
	return Promise.all(
		customers.map(async (customer) => {
			// n8n 2.x may publish through an outbox: the webhook can appear a moment after activation.
			// A 404 "not registered" ran nothing, so asking again is safe.
			const { response, text } = await waitFor(
				`the webhook for ${customer.customerId}`,
				async () => {
					const answer = await fetch(`${n8n.baseUrl}/webhook/${webhookPath}`, {
						method: 'POST',
						headers: WEBHOOK_HEADERS,
						body: JSON.stringify(customer),
					});
					const body = await answer.text();
					return answer.status === 404 && /not registered/.test(body)
						? undefined
						: { response: answer, text: body };
				},
				{ timeoutMs: 90_000, intervalMs: 1000 },
			);
			if (response.status !== 200)
				throw new Error(`${customer.customerId}: ${response.status} ${text.slice(0, 500)}`);
			return JSON.parse(text);
		}),
	);
}

/** Each answer names its customer, and each customer owns exactly its installation, started. */
async function checkOnboarded(checks, emulator, { partner, customers, answers }) {
	checks.ok(
		'each answer names its customer and a started installation',
		answers.every(
			(answer, i) =>
				answer.customerId === customers[i].customerId &&
				Number(answer.installationId) > 0 &&
				answer.status === 1,
		),
		JSON.stringify(answers),
	);
	const state = await emulator.state();
	for (const [i, customer] of customers.entries()) {
		const sub = `${partner.name}:${customer.customerId}`;
		const owned = state.installations.filter((inst) => inst.userId === sub);
		checks.ok(
			`emulator: ${customer.customerId} is an end user owning exactly its installation, started`,
			state.endUsers.some((user) => user.id === customer.customerId) &&
				owned.length === 1 &&
				owned[0].id === answers[i].installationId &&
				owned[0].status === 1,
			JSON.stringify({ owned, endUsers: state.endUsers }),
		);
	}
}

/** One add-user call per customer (and none for anyone else), at most one token call each. */
async function checkOnboardingCalls(checks, emulator, customers) {
	const requests = await emulator.requests();
	const addUsers = callsPerUser(requests, ADD_USER);
	const tokenCalls = callsPerUser(requests, TOKEN_CALL);
	checks.equal(
		'emulator: exactly one add-user call per customer',
		customers.map((c) => addUsers[c.customerId] ?? 0),
		customers.map(() => 1),
	);
	checks.equal(
		'emulator: no add-user call for anyone else',
		Object.keys(addUsers).length,
		customers.length,
	);
	checks.ok(
		'emulator: at most one token call per customer',
		Object.values(tokenCalls).every((n) => n <= 1),
		JSON.stringify(tokenCalls),
	);
	console.log(`    token calls during onboarding: ${JSON.stringify(tokenCalls)}`);
}

/** Nightly: 5 customers paused, 1 resumed, through `n8n execute`; gives the execution. */
async function checkNightly(checks, n8n, emulator, { partner, nightly }) {
	const nightlyCustomers = JSON.parse(
		nightly.nodes.find((node) => node.name === 'Customers to change').parameters.jsonOutput,
	).customers;
	const installations = {};
	for (const { customerId, action } of nightlyCustomers) {
		installations[customerId] = await prepareCustomer(
			emulator,
			partner,
			customerId,
			action === 'pause',
		);
	}
	await emulator.control('DELETE', '/requests');
	const result = await checks.step(
		'n8n execute runs the nightly workflow ("Run now")',
		async () => {
			const executed = await n8n.execute(NIGHTLY.id);
			if (!executed.run || executed.code !== 0)
				throw new Error(`exit ${executed.code}\n${executed.output.slice(-3000)}`);
			return executed;
		},
	);
	const after = await emulator.state();
	const statusOf = (customerId) =>
		after.installations.find((inst) => inst.id === installations[customerId])?.status;
	const pausers = nightlyCustomers.filter((c) => c.action === 'pause').map((c) => c.customerId);
	const resumers = nightlyCustomers.filter((c) => c.action !== 'pause').map((c) => c.customerId);
	checks.equal(
		`emulator: the installations of ${pausers.length} customers are paused`,
		pausers.map(statusOf),
		pausers.map(() => 0),
	);
	checks.equal(
		`emulator: the installation of ${resumers.join(', ')} is started`,
		resumers.map(statusOf),
		resumers.map(() => 1),
	);
	const requests = await emulator.requests();
	const nightlyTokens = callsPerUser(requests, TOKEN_CALL);
	checks.ok(
		'emulator: at most one token call per customer in the nightly run',
		nightlyCustomers.every((c) => (nightlyTokens[c.customerId] ?? 0) <= 1) &&
			Object.keys(callsPerUser(requests, ADD_USER)).length === 0,
		JSON.stringify(nightlyTokens),
	);
	console.log(`    token calls during the nightly run: ${JSON.stringify(nightlyTokens)}`);
	const pauseCalls = requests.filter((r) => r.method === 'PAUSE').map((r) => r.user);
	checks.ok(
		"emulator: each PAUSE was sent as the installation's own end user",
		pauseCalls.length === pausers.length &&
			pausers.every((c) => pauseCalls.includes(`${partner.name}:${c}`)),
		JSON.stringify(pauseCalls),
	);
	return result;
}

/** No secrets in what n8n stored. */
async function checkNoSecrets(checks, n8n, partner, result) {
	const stored = [JSON.stringify(result.run)];
	for (const summary of await n8n.executions(ONBOARDING.id))
		stored.push(JSON.stringify(await n8n.execution(summary.id)));
	const text = stored.join('\n');
	checks.ok(
		'no master token and no end-user token in the stored executions',
		!holdsToken(text, partner.masterToken),
	);
}

export async function checkPartnerMode(checks, n8n, emulator, repoRoot) {
	await emulator.reset();
	const { partner, onboarding, nightly } = await checks.step(
		'import the Albato Partner API credential and both partner examples (CLI)',
		() => importPartnerFixtures(n8n, emulator, repoRoot),
	);

	// ---- onboarding: an active webhook workflow, 3 customers at once
	await checks.step('activate the onboarding workflow (REST)', () => n8n.activate(ONBOARDING.id));
	const webhookPath = onboarding.nodes.find((node) => node.type === 'n8n-nodes-base.webhook')
		.parameters.path;
	const customers = [
		{ customerId: 'e2e-northwind', company: 'Northwind' },
		{ customerId: 'e2e-contoso', company: 'Contoso' },
		{ customerId: 'e2e-fabrikam', company: 'Fabrikam' },
	];
	const answers = await checks.step('3 webhook calls, at the same time', () =>
		callOnboarding(n8n, webhookPath, customers),
	);
	await checkOnboarded(checks, emulator, { partner, customers, answers });
	await checkWebhookRefused(checks, emulator, `${n8n.baseUrl}/webhook/${webhookPath}`);
	await checkOnboardingCalls(checks, emulator, customers);

	const result = await checkNightly(checks, n8n, emulator, { partner, nightly });
	await checkNoSecrets(checks, n8n, partner, result);
	await n8n.deactivate(ONBOARDING.id);
}
