// The queue-mode onboardings (queue.mjs): CUSTOMERS concurrent webhook calls onboard as many
// customers on the account's own user, then as many in partner mode (end user, installation,
// start, with the Albato Partner API credential and the workers' token caches).

import { webhookPathOf } from './lib/webhook.mjs';
import {
	ADD_USER,
	callsPerUser,
	checkWebhookRefused,
	TOKEN_CALL,
	WEBHOOK_HEADERS,
} from './partner.mjs';
import {
	CUSTOMERS,
	ONBOARDING,
	PARTNER,
	post,
	readWorkflow,
	seconds,
	subjectOf,
	timings,
} from './queueSetup.mjs';

/** The first 5 wrong answers (`{ i, r }`: index and answer), for a failed check's detail. */
const badAnswers = (bad) =>
	bad
		.slice(0, 5)
		.map(({ i, r }) => `#${i}: ${r.status} ${r.text.slice(0, 300)}`)
		.join('\n');

/** The example's webhook path (partner mode). */
const partnerWebhookPath = async () => webhookPathOf(await readWorkflow(PARTNER.file, PARTNER.id));

/** CUSTOMERS onboardings at once; returns the installations made, by ID. */
export async function checkOnboarding(checks, webhookBase, emulator) {
	const url = `${webhookBase}/webhook/${ONBOARDING.webhookPath}`;
	const started = Date.now();
	const responses = await Promise.all(
		Array.from({ length: CUSTOMERS }, (_, i) => post(url, ONBOARDING.request(i))),
	);
	timings[`${CUSTOMERS} webhook calls (s)`] = seconds(Date.now() - started);
	const bad = responses
		.map((r, i) => ({ i, r }))
		.filter(({ r }) => r.status !== 200 || r.json?.status !== 1);
	checks.ok(
		`${CUSTOMERS} concurrent webhook calls → ${CUSTOMERS} × 200 with a started installation`,
		bad.length === 0,
		() => badAnswers(bad),
	);
	const answered = responses.map((r) => r.json?.title);
	checks.equal(
		"each call answered with its own customer's installation",
		answered,
		Array.from({ length: CUSTOMERS }, (_, i) => ONBOARDING.expectedTitle(i)),
	);
	const created = await checkInstalled(checks, emulator, responses);
	const calls = await emulator.requests();
	const installs = calls.filter(
		(c) => c.method === 'POST' && c.path === '/solution/101/installation',
	);
	checks.equal(`emulator: ${CUSTOMERS} install calls (none repeated)`, installs.length, CUSTOMERS);
	const plays = calls.filter((c) => c.method === 'PLAY').map((c) => c.path);
	checks.equal(
		`emulator: ${CUSTOMERS} PLAY calls, one per new installation`,
		new Set(plays).size === CUSTOMERS && plays.length === CUSTOMERS,
		true,
	);
	return created.sort((a, b) => a.id - b.id);
}

/** Whether a new installation is not as ONBOARDING expects it. */
function unexpected(state, installation) {
	const templates = state.bundles
		.filter((b) => installation.bundleIds.includes(b.id))
		.map((b) => b.templateId);
	return (
		installation.solutionId !== ONBOARDING.expected.solutionId ||
		installation.status !== ONBOARDING.expected.status ||
		installation.userId !== ONBOARDING.expected.userId ||
		JSON.stringify(templates) !== JSON.stringify(ONBOARDING.expected.templateIds) ||
		JSON.stringify(installation.credentialData) !==
			JSON.stringify({
				crm: 'hubspot',
				hubspotPipeline: 'sales',
				hubspotStage: 'new',
				mailer: 'mailchimp',
			})
	);
}

/** The emulator's installations of the onboarding: one per customer, as expected. */
async function checkInstalled(checks, emulator, responses) {
	const state = await emulator.state();
	const titles = new Set(Array.from({ length: CUSTOMERS }, (_, i) => ONBOARDING.expectedTitle(i)));
	const created = state.installations.filter((i) => titles.has(i.title));
	checks.equal(
		`emulator: exactly ${CUSTOMERS} new installations, one per customer`,
		created.length,
		CUSTOMERS,
	);
	checks.equal(
		'emulator: no title twice',
		new Set(created.map((i) => i.title)).size,
		created.length,
	);
	const others = state.installations
		.filter((i) => !titles.has(i.title))
		.map((i) => i.id)
		.sort();
	checks.equal('emulator: nothing else was installed', others, [5001, 5002, 5003]);
	const wrong = created.filter((i) => unexpected(state, i));
	checks.ok(
		'emulator: every one active (1), solution 101, template 1011, user-1, the connection settings given',
		wrong.length === 0,
		() => JSON.stringify(wrong.slice(0, 3)),
	);
	const subjects = [...new Set(created.map((i) => subjectOf(state, i)))];
	checks.equal('emulator: field values are the template\'s (subject "Welcome aboard")', subjects, [
		'Welcome aboard',
	]);
	const responseIds = responses.map((r) => r.json?.id).sort();
	checks.equal(
		'the ids answered are the ids created',
		responseIds,
		created.map((i) => i.id).sort(),
	);
	return created;
}

/** Partner mode: CUSTOMERS new customers at once, each an end user with its own installation. */
export async function checkPartnerOnboarding(checks, webhookBase, emulator, partner) {
	await emulator.control('DELETE', '/requests');
	const customers = Array.from({ length: CUSTOMERS }, (_, i) => PARTNER.customer(i));
	const webhookPath = await partnerWebhookPath();
	const started = Date.now();
	const responses = await Promise.all(
		customers.map((customer) =>
			post(`${webhookBase}/webhook/${webhookPath}`, customer, WEBHOOK_HEADERS),
		),
	);
	timings[`${CUSTOMERS} partner webhook calls (s)`] = seconds(Date.now() - started);
	const bad = responses
		.map((r, i) => ({ i, r }))
		.filter(
			({ r, i }) =>
				r.status !== 200 ||
				r.json?.customerId !== customers[i].customerId ||
				!(Number(r.json?.installationId) > 0) ||
				r.json?.status !== 1,
		);
	checks.ok(
		`${CUSTOMERS} concurrent webhook calls → each answers with its own customer and a started installation`,
		bad.length === 0,
		() => badAnswers(bad),
	);
	const customerCtx = { checks, emulator, partner, customers };
	await checkEndUsers(customerCtx, responses);
	await checkPartnerCalls(customerCtx);
	// The installation trigger stays active throughout (its group checks each event once): its
	// minute polls read installations as the account's own user, never as a partner customer.
	const triggerPoll = (r) => r.method === 'GET' && r.user === 'user-1';
	await checkWebhookRefused(
		checks,
		emulator,
		`${webhookBase}/webhook/${await partnerWebhookPath()}`,
		triggerPoll,
	);
}

/** Each customer an end user owning exactly one started installation, the one answered. */
async function checkEndUsers({ checks, emulator, partner, customers }, responses) {
	const state = await emulator.state();
	const ownedBy = (customer) =>
		state.installations.filter((inst) => inst.userId === `${partner.name}:${customer.customerId}`);
	const wrong = customers.filter((customer, i) => {
		const owned = ownedBy(customer);
		return (
			!state.endUsers.some((user) => user.id === customer.customerId) ||
			owned.length !== 1 ||
			owned[0].id !== responses[i].json?.installationId ||
			owned[0].status !== 1 ||
			owned[0].title !== `${customer.company} – lead sync` ||
			owned[0].solutionId !== 101
		);
	});
	checks.ok(
		`emulator: each of the ${CUSTOMERS} customers is an end user owning exactly one started installation, its own`,
		wrong.length === 0,
		() =>
			wrong
				.slice(0, 3)
				.map((c) => `${c.customerId}: ${JSON.stringify(ownedBy(c))}`)
				.join('\n'),
	);
}

/** The partner calls: one add-user per customer, at most one token call, all as the customer. */
async function checkPartnerCalls({ checks, emulator, partner, customers }) {
	const requests = await emulator.requests();
	const addUsers = callsPerUser(requests, ADD_USER);
	const tokenCalls = callsPerUser(requests, TOKEN_CALL);
	checks.equal(
		'emulator: exactly one add-user call per customer, none for anyone else',
		[customers.every((c) => addUsers[c.customerId] === 1), Object.keys(addUsers).length],
		[true, CUSTOMERS],
	);
	checks.ok(
		'emulator: at most one token call per customer',
		Object.values(tokenCalls).every((n) => n <= 1),
		JSON.stringify(tokenCalls),
	);
	console.log(
		`    token calls: ${Object.values(tokenCalls).reduce((a, b) => a + b, 0)} for ${CUSTOMERS} customers`,
	);
	const asSomeoneElse = requests.filter(
		(r) =>
			(r.method === 'PLAY' || (r.method === 'POST' && r.path === '/solution/101/installation')) &&
			!customers.some((c) => r.user === `${partner.name}:${c.customerId}`),
	);
	const installs = requests.filter(
		(r) => r.method === 'POST' && r.path === '/solution/101/installation',
	);
	checks.ok(
		`emulator: ${CUSTOMERS} installs and ${CUSTOMERS} PLAYs, each sent as a customer of this run`,
		installs.length === CUSTOMERS &&
			requests.filter((r) => r.method === 'PLAY').length === CUSTOMERS &&
			asSomeoneElse.length === 0,
		() => JSON.stringify(asSomeoneElse.slice(0, 3)),
	);
	const refused = requests
		.filter((r) => r.status >= 400)
		.map((r) => `${r.method} ${r.path} ${r.status}`);
	checks.equal(
		'emulator: no call was refused (no 401: tokens stayed valid across workers)',
		refused,
		[],
	);
}
