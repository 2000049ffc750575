// The upgrade examples in real n8n (called from run.mjs after the fleet change, the Albato Partner
// API credential imported): examples/fleet-upgrade.workflow.json and fleet-rollback.workflow.json
// for 6 customers, each example started by a webhook in place of its manual trigger
// (lib/exampleWebhook.mjs). upg-01…upg-04 have "CRM Leads to Mailer" (solution 101) active with
// their own subject, upg-05 has it paused (switched off), upg-06 is not an Albato end user.
//
//  1. Preview (the example with Request Options → Preview on): every customer in the report, nothing
//     written;
//  2. the upgrade: upg-01…04 on solution 105, active, their subject carried into mailSubject, the
//     old installation paused; upg-05 left paused on both (`leftPaused` in the report); upg-06
//     failed; the emulator never saw two copies of one customer active at once;
//  3. the upgrade again (resume): every customer done is `alreadyUpgraded`, nothing is written;
//  4. the roll back: upg-01…04 back on 101 with their subject, 105 paused; upg-05 stays off; again:
//     nothing written.

import { runOnce, setJson, withWebhook } from './lib/exampleWebhook.mjs';
import { activateWorkflow, deactivateWorkflow } from './lib/webhook.mjs';
import { customerSession, installFor } from './partner.mjs';

const TITLE = 'CRM Leads to Mailer';
const CUSTOMERS = ['upg-01', 'upg-02', 'upg-03', 'upg-04', 'upg-05', 'upg-06'];
const OFF = 'upg-05';
const MISSING = 'upg-06';
const ON = CUSTOMERS.filter((id) => id !== OFF && id !== MISSING);
const example = (id, file, suffix, webhookId) => ({
	id,
	file: `examples/${file}.workflow.json`,
	trigger: 'Run now',
	webhookPath: `albato-e2e-${suffix}`,
	webhookId,
});
const PREVIEW = example(
	'AlbatoUpgrPrev01',
	'fleet-upgrade',
	'upgrade-preview',
	'5b2d7c1e-8f3a-4d6b-9e0c-1a2b3c4d5e01',
);
const UPGRADE = example(
	'AlbatoUpgrade001',
	'fleet-upgrade',
	'upgrade',
	'5b2d7c1e-8f3a-4d6b-9e0c-1a2b3c4d5e02',
);
const ROLLBACK = example(
	'AlbatoRollback01',
	'fleet-rollback',
	'rollback',
	'5b2d7c1e-8f3a-4d6b-9e0c-1a2b3c4d5e03',
);
const READING_POSTS = /\/wl\/[^/]+\/(get-user-session-token|get-user-profile|get-own-credential)$/;
const isWrite = (r) => r.method !== 'GET' && !(r.method === 'POST' && READING_POSTS.test(r.path));
const subjectOf = (id) => `Hello from ${id}`;

/** The example for these customers (and, for PREVIEW, with Preview on), imported and active. */
async function importExample(checks, n8n, repoRoot, target) {
	const listNode = target === ROLLBACK ? 'Customers to roll back' : 'Customers to upgrade';
	const workflow = await withWebhook(repoRoot, target, (w) => {
		const out = setJson(w, listNode, {
			customers: CUSTOMERS.map((customerId) => ({ customerId })),
		});
		if (target === PREVIEW) {
			const node = out.nodes.find((n) => n.type.endsWith('.albatoSolutions'));
			node.parameters.requestOptions = { ...node.parameters.requestOptions, preview: true };
			out.name = `${out.name} (Preview)`;
		}
		return out;
	});
	await checks.step(`import and activate ${target.id} (${target.file})`, async () => {
		await n8n.importWorkflow(workflow);
		await activateWorkflow(n8n, target.id);
	});
}

/** A customer before the upgrade: the installation with its own subject, started unless OFF. */
async function prepare(emulator, partner, id) {
	if (id === MISSING) return;
	const asUser = await customerSession(emulator, partner, id);
	const installationId = await installFor(asUser, TITLE, false);
	const state = await emulator.state();
	const { bundleIds } = state.installations.find((i) => i.id === installationId);
	const mail = state.bundleData.find(
		(r) => bundleIds.includes(r.bundleId) && r.title === 'Send welcome email',
	);
	await asUser('PUT', `/bundle/data/${mail.id}`, { data: { subject: subjectOf(id) } });
	if (id !== OFF) await asUser('PLAY', `/solution/installation/${installationId}`);
}

/** Per customer: `{ 101: [status, subject], 105: [status, mailSubject] }` from the emulator. */
async function copiesOf(emulator, partner) {
	const state = await emulator.state();
	const out = {};
	for (const id of CUSTOMERS) {
		out[id] = {};
		for (const i of state.installations.filter(
			(x) => x.userId === `${partner.name}:${id}` && x.title === TITLE,
		)) {
			const field = state.bundleData
				.filter((r) => i.bundleIds.includes(r.bundleId))
				.flatMap((r) => r.fields)
				.find((f) => f.name === (i.solutionId === 105 ? 'mailSubject' : 'subject'));
			out[id][i.solutionId] = [i.status, field?.value];
		}
	}
	return out;
}

/** One run through the webhook: its report (the Report node's item) and the writes it sent. */
async function run(checks, n8n, emulator, target, label) {
	await emulator.control('DELETE', '/requests');
	const { runData } = await runOnce(checks, n8n, target, label);
	const report = runData.Report?.[0]?.data?.main?.[0]?.[0]?.json ?? {};
	const writes = (await emulator.control('GET', '/requests')).filter(isWrite);
	return { report, writes, states: (report.customers ?? []).map((c) => [c.customer, c.state]) };
}

const bothActiveEvents = async (emulator) =>
	(await emulator.control('POST', '/fleet/status', { idPrefix: 'upg-' })).bothActive.events;

export async function checkFleetUpgrade(checks, n8n, emulator, repoRoot) {
	const partner = await emulator.control('GET', '/partner');
	for (const target of [PREVIEW, UPGRADE, ROLLBACK])
		await importExample(checks, n8n, repoRoot, target);
	for (const id of CUSTOMERS) await prepare(emulator, partner, id);
	const twiceBefore = await bothActiveEvents(emulator);

	const preview = await run(checks, n8n, emulator, PREVIEW, 'the upgrade in Preview');
	checks.equal(
		'Preview: the report names every Albato customer, nothing is written',
		[preview.report.preview, preview.states.map(([id]) => id), preview.writes.length],
		[true, CUSTOMERS.filter((id) => id !== MISSING), 0],
	);

	const first = await run(checks, n8n, emulator, UPGRADE, 'the upgrade');
	checks.equal(
		'the upgrade: upg-01…05 upgraded, upg-06 failed, upg-05 left paused',
		[first.states, first.report.failed?.map((f) => f.customer), first.report.leftPaused],
		[CUSTOMERS.slice(0, 5).map((id) => [id, 'upgraded']), [MISSING], [OFF]],
	);
	const upgraded = await copiesOf(emulator, partner);
	checks.equal(
		'emulator: each customer on 105 with its subject (active; upg-05 paused), the old one paused',
		CUSTOMERS.slice(0, 5).map((id) => upgraded[id]),
		CUSTOMERS.slice(0, 5).map((id) => ({
			101: [0, subjectOf(id)],
			105: [id === OFF ? 0 : 1, subjectOf(id)],
		})),
	);
	checks.equal(
		'emulator: never two copies of one customer active at once',
		(await bothActiveEvents(emulator)) - twiceBefore,
		0,
	);

	const resume = await run(checks, n8n, emulator, UPGRADE, 'the upgrade again (resume)');
	checks.equal(
		'resume: every customer done is alreadyUpgraded, nothing is written',
		[resume.states, resume.writes.length],
		[CUSTOMERS.slice(0, 5).map((id) => [id, 'alreadyUpgraded']), 0],
	);
	await checkRollBack(checks, n8n, emulator, partner);
	for (const target of [PREVIEW, UPGRADE, ROLLBACK]) await deactivateWorkflow(n8n, target.id);
}

async function checkRollBack(checks, n8n, emulator, partner) {
	const back = await run(checks, n8n, emulator, ROLLBACK, 'the roll back');
	checks.equal(
		'roll back: upg-01…04 rolled back, upg-05 stays off (nothing to move), upg-06 failed',
		[back.states, back.report.failed?.map((f) => f.customer)],
		[[...ON.map((id) => [id, 'rolledBack']), [OFF, 'alreadyRolledBack']], [MISSING]],
	);
	const after = await copiesOf(emulator, partner);
	checks.equal(
		'emulator: upg-01…04 on 101 again with their subject, 105 paused; upg-05 both paused',
		CUSTOMERS.slice(0, 5).map((id) => [after[id][101][0], after[id][105][0], after[id][101][1]]),
		CUSTOMERS.slice(0, 5).map((id) => [id === OFF ? 0 : 1, 0, subjectOf(id)]),
	);
	const twice = await run(checks, n8n, emulator, ROLLBACK, 'the roll back again');
	checks.equal(
		'roll back again: nothing written, every customer alreadyRolledBack',
		[twice.writes.length, twice.states.map(([, state]) => state)],
		[0, Array(5).fill('alreadyRolledBack')],
	);
}
