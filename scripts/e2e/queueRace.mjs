// `npm run e2e:queue`, the race beyond the list-lag window: the same onboarding delivered twice at
// once for 20 customers while the list lags 9 s behind a POST (Lost Answer Check: 5 s), so that two
// workers can each install a copy for one customer and both stay active (the harm: every email sent
// twice). Then one later Ensure per customer (node version 4): afterwards no customer has two
// active copies, the oldest is the one kept, each extra copy is paused, kept (nothing deleted) and
// reported in that customer's answer (`duplicates: [{duplicateOf, installationId, paused: true}]`).

import { waitFor } from './lib/proc.mjs';

export const RACE_CUSTOMERS = 20;
export const RACE_ID = 'QueueRaceEnsure1';
const LAG_MS = 9000;
const title = (i) => `Race ${String(i + 1).padStart(3, '0')} – delivered twice`;
const customer = (i) => ({ customer: `Race ${String(i + 1).padStart(3, '0')}` });

/** The Ensure workflow of the delivered-twice check at node version 4, on its own webhook path. */
export function raceWorkflow(workflow) {
	const race = structuredClone(workflow);
	const webhook = race.nodes.find((node) => node.type === 'n8n-nodes-base.webhook');
	webhook.parameters.path = 'albato-queue-race-ensure';
	webhook.webhookId = '6f0c1c7e-3d1e-4c55-9a43-5b7a7f2f0b03';
	race.nodes.find((node) => node.name === 'Install').typeVersion = 4;
	// The kept copy and the copies paused beside it, in the answer of the item's own result.
	race.nodes.find((node) => node.name === 'Respond ok').parameters.responseBody =
		"={{ { outcome: 'ok', id: $json.installation.id, created: $json.created, duplicates: $json.duplicates ?? [] } }}";
	return { ...race, name: 'Queue e2e – a race beyond the list-lag window (Ensure, version 4)' };
}

/** Each customer's copies, oldest first, from the emulator's state. */
async function copiesOf(emulator) {
	const state = await emulator.state();
	return Array.from({ length: RACE_CUSTOMERS }, (_, i) =>
		state.installations.filter((inst) => inst.title === title(i)).sort((a, b) => a.id - b.id),
	);
}

/**
 * Until every execution of the race has ended: an answer goes out from "Respond ok" while the
 * execution goes on (a customer's twin also leaves on the error output, to "Respond failed").
 */
async function settled(postgres) {
	await waitFor(
		'the race executions to end',
		async () => {
			const [[left]] = await postgres.psql(
				`SELECT count(*) FROM execution_entity WHERE "workflowId" = '${RACE_ID}' AND status IN ('new', 'running')`,
			);
			return Number(left) === 0;
		},
		{ timeoutMs: 60_000, intervalMs: 500 },
	);
}

const twoActive = (perCustomer) =>
	perCustomer.filter((list) => list.filter((inst) => inst.status === 1).length > 1);

/**
 * After the later Ensure: nobody with two active copies, the oldest kept, and every extra copy that
 * was active reported as paused. Returns the reports.
 */
function checkMended(checks, before, after, later) {
	checks.equal(
		'after one later Ensure per customer: 0 customers with two active copies',
		twoActive(after).length,
		0,
	);
	checks.ok(
		'each customer: the oldest copy active, every other paused, none deleted',
		after.every(
			(list, i) =>
				list.length === before[i].length &&
				list[0].status === 1 &&
				list.slice(1).every((inst) => inst.status === 0),
		),
		() => JSON.stringify(after.filter((list) => list[0]?.status !== 1).slice(0, 3)),
	);
	const wasActive = before.flatMap((list) =>
		list
			.slice(1)
			.filter((inst) => inst.status === 1)
			.map((inst) => [inst.id, list[0].id, true]),
	);
	const reported = later.flatMap((r) =>
		(r.json?.duplicates ?? []).map((d) => [d.installationId, d.duplicateOf, d.paused]),
	);
	checks.equal(
		`each extra copy that was active is reported as paused, with the copy kept (${wasActive.length})`,
		reported.sort((a, b) => a[0] - b[0]),
		wasActive.sort((a, b) => a[0] - b[0]),
	);
	return reported;
}

export async function checkRaceBeyondWindow(checks, { webhookBase, emulator, post, postgres }) {
	const url = `${webhookBase}/webhook/albato-queue-race-ensure`;
	await emulator.control('POST', '/list-lag', { ms: LAG_MS });
	const twice = Array.from({ length: RACE_CUSTOMERS }, (_, i) => customer(i)).flatMap((body) => [
		body,
		body,
	]);
	const raced = await Promise.all(twice.map((body) => post(url, body)));
	await emulator.control('POST', '/list-lag', {});
	checks.ok(
		`${twice.length} webhook calls (each customer twice at once, the list ${LAG_MS / 1000} s behind) → all answered 200`,
		raced.every((r) => r.status === 200),
		() => raced.find((r) => r.status !== 200)?.text.slice(0, 300),
	);
	// Every copy the race made is listed once the lag is over (it runs from each copy's creation).
	await new Promise((resolve) => setTimeout(resolve, LAG_MS + 500));
	const before = await copiesOf(emulator);
	const harmed = twoActive(before);
	checks.ok(
		`the race left customers with two active copies (${harmed.length} of ${RACE_CUSTOMERS}): what the later Ensure must mend`,
		harmed.length > 0,
		() => 'no customer raced: both deliveries ran on one worker each time; run again',
	);

	const later = await Promise.all(
		Array.from({ length: RACE_CUSTOMERS }, (_, i) => post(url, customer(i))),
	);
	const after = await copiesOf(emulator);
	await settled(postgres);
	const reported = checkMended(checks, before, after, later);
	console.log(
		`    race: ${harmed.length} of ${RACE_CUSTOMERS} customers with two active copies after the race; ${reported.length} paused and reported by the later Ensure`,
	);
}
