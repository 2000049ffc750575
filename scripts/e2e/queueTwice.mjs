// `npm run e2e:queue`, duplicate containment: the same onboarding delivered twice at the same moment
// to the webhook processor, for 20 customers, with 2 workers and a list that lags 1 s behind a POST.
// With Installation → Ensure, and with Create + Refuse Duplicate Title: exactly one active
// installation per customer, every extra one paused and reported (`details.duplicateOf`).

import { checkRaceBeyondWindow, RACE_CUSTOMERS, RACE_ID, raceWorkflow } from './queueRace.mjs';

export const TWICE_CUSTOMERS = Number(process.env.QUEUE_E2E_TWICE) || 20;
const ENSURE_FILE = 'scripts/e2e/fixtures/queue-twice-ensure.workflow.json';
const deliveredTwice = (what) =>
	`Delivered twice: ${TWICE_CUSTOMERS} onboardings, each twice at once, ${what}`;
/** Each check's workflow and group; the race (queueRace.mjs) reuses the Ensure fixture. */
export const TWICE = {
	ensure: {
		id: 'QueueTwiceEnsure',
		file: ENSURE_FILE,
		group: deliveredTwice('Installation → Ensure'),
	},
	create: {
		id: 'QueueTwiceCreate',
		file: 'scripts/e2e/fixtures/queue-twice-create.workflow.json',
		group: deliveredTwice('Create + Refuse Duplicate Title'),
	},
	race: {
		id: RACE_ID,
		file: ENSURE_FILE,
		adapt: raceWorkflow,
		group: `A race beyond the list-lag window: ${RACE_CUSTOMERS} onboardings each twice at once, then one later Ensure each`,
	},
};

/** The workflows of the checks above, read with `readWorkflow(file, id)`. */
export async function twiceWorkflows(readWorkflow) {
	const out = [];
	for (const { file, id, adapt } of Object.values(TWICE)) {
		const workflow = await readWorkflow(file, id);
		out.push(adapt ? adapt(workflow) : workflow);
	}
	return out;
}

/** One of the checks above, by its key in TWICE (`run`: webhookBase, emulator, post, postgres). */
export async function checkTwice(checks, run, kind) {
	if (kind === 'race') return await checkRaceBeyondWindow(checks, run);
	return await checkDeliveredTwice(checks, run.webhookBase, run.emulator, kind, run.post);
}
const title = (kind, i) => `Twice ${kind} ${String(i + 1).padStart(3, '0')} – delivered twice`;

export async function checkDeliveredTwice(checks, webhookBase, emulator, kind, post) {
	await emulator.control('DELETE', '/requests');
	await emulator.control('POST', '/list-lag', { ms: 1000 });
	const url = `${webhookBase}/webhook/albato-queue-twice-${kind}`;
	const calls = Array.from({ length: TWICE_CUSTOMERS }, (_, i) => ({
		customer: `Twice ${kind} ${String(i + 1).padStart(3, '0')}`,
	})).flatMap((body) => [body, body]);
	const responses = await Promise.all(calls.map((body) => post(url, body)));
	await emulator.control('POST', '/list-lag', {});
	checks.ok(
		`${calls.length} webhook calls (each customer twice at once) → all answered 200`,
		responses.every((r) => r.status === 200),
		() =>
			responses
				.filter((r) => r.status !== 200)
				.slice(0, 3)
				.map((r) => `${r.status} ${r.text.slice(0, 300)}`)
				.join('\n'),
	);

	const state = await emulator.state();
	const perCustomer = Array.from({ length: TWICE_CUSTOMERS }, (_, i) =>
		state.installations.filter((inst) => inst.title === title(kind, i)).sort((a, b) => a.id - b.id),
	);
	const active = perCustomer.flat().filter((inst) => inst.status === 1);
	checks.equal(
		`emulator: exactly ${TWICE_CUSTOMERS} active installations, one per customer`,
		[active.length, perCustomer.every((list) => list.filter((i) => i.status === 1).length === 1)],
		[TWICE_CUSTOMERS, true],
	);
	const duplicates = perCustomer.flatMap((list) => list.slice(1));
	const activeDuplicates = duplicates.filter((inst) => inst.status !== 0);
	checks.equal('emulator: 0 duplicates active', activeDuplicates.length, 0);
	checks.ok(
		'the oldest installation of each customer is the active one',
		perCustomer.every((list) => list[0]?.status === 1),
		() => JSON.stringify(perCustomer.filter((list) => list[0]?.status !== 1).slice(0, 3)),
	);
	const reported = responses
		.filter((r) => r.json?.outcome === 'failed' && r.json?.details?.duplicateOf !== undefined)
		.map((r) => [r.json.details.installationId, r.json.details.duplicateOf]);
	const expected = perCustomer.flatMap((list) => list.slice(1).map((dup) => [dup.id, list[0].id]));
	checks.equal(
		`every duplicate paused and reported on the error output (${duplicates.length} raced through)`,
		[...reported].sort((a, b) => a[0] - b[0]),
		expected.sort((a, b) => a[0] - b[0]),
	);
	const otherFailures = responses.filter(
		(r) => r.json?.outcome === 'failed' && r.json?.details?.duplicateOf === undefined,
	);
	const refused = otherFailures.filter((r) => /already exists/.test(r.json?.error ?? ''));
	checks.equal(
		kind === 'ensure'
			? 'no other failure (the second delivery converges, or is the reported duplicate)'
			: 'no other failure than "already exists" (the second delivery refused)',
		otherFailures.length - (kind === 'create' ? refused.length : 0),
		0,
	);
	console.log(
		`    ${kind}: ${duplicates.length} raced duplicates (paused, reported), ${refused.length} refused as existing, ${
			responses.filter((r) => r.json?.outcome === 'ok').length
		} ok`,
	);
}
