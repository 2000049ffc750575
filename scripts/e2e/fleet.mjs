// The fleet change in real n8n (called from run.mjs while n8n runs, after partner mode imported the
// Albato Partner API credential): examples/fleet-change.workflow.json for 20 customers, one of whom
// (fleet-08) is not an Albato end user yet.
//
//  1. run it: the 5 canaries succeed, fleet-08 fails, Stop After Failures 2% stops the run halfway;
//     every customer never started is on the error output (details.notAttempted, paired) and got no
//     request at all; the report counts changed, failed and not attempted
//  2. fix (create fleet-08) and run it again: nothing is written for the customers done in run 1;
//     every customer ends active with the new subject; the report has no failure
//
// n8n 2.41 routes an item to the error output when its json holds only error, message and details:
// this proves the not-attempted items really leave there.

import path from 'node:path';
import { readFile } from 'node:fs/promises';

import { customerSession } from './partner.mjs';

const FLEET = { id: 'AlbatoFleetChng1', file: 'examples/fleet-change.workflow.json' };
const CUSTOMERS = Array.from({ length: 20 }, (_x, i) => `fleet-${String(i + 1).padStart(2, '0')}`);
const MISSING = 'fleet-08';
const READING_POSTS = /\/wl\/[^/]+\/(get-user-session-token|get-user-profile|get-own-credential)$/;
const isWrite = (r) => r.method !== 'GET' && !(r.method === 'POST' && READING_POSTS.test(r.path));

const outputs = (runData, name) =>
	(runData[name]?.[0]?.data?.main ?? []).map((items) => items ?? []);

async function execute(checks, n8n, label) {
	return await checks.step(`n8n execute runs the fleet change (${label})`, async () => {
		const executed = await n8n.execute(FLEET.id);
		if (!executed.run || executed.code !== 0)
			throw new Error(`exit ${executed.code}\n${executed.output.slice(-3000)}`);
		return executed.run.data.resultData.runData;
	});
}

export async function checkFleetChange(checks, n8n, emulator, repoRoot) {
	await emulator.reset();
	const partner = await emulator.control('GET', '/partner');
	const workflow = JSON.parse(await readFile(path.join(repoRoot, FLEET.file), 'utf8'));
	const list = workflow.nodes.find((node) => node.name === 'Customers to change');
	list.parameters.jsonOutput = JSON.stringify({
		customers: CUSTOMERS.map((customerId) => ({ customerId })),
	});
	await checks.step('import:workflow (fleet change, 20 customers)', () =>
		n8n.importWorkflow({ ...workflow, id: FLEET.id }),
	);
	for (const id of CUSTOMERS) if (id !== MISSING) await customerSession(emulator, partner, id);
	await emulator.control('DELETE', '/requests');
	const userOf = (id) => `${partner.name}:${id}`;

	// ---- 1. stopped halfway
	const first = await execute(checks, n8n, `${MISSING} missing`);
	const [done, problems] = outputs(first, 'Ensure new subject');
	const customerOf = (item) => CUSTOMERS[item.pairedItem?.item];
	const notAttempted = problems.filter((item) => item.json.details?.notAttempted === true);
	const failed = problems.filter((item) => item.json.details?.notAttempted !== true);
	checks.equal('run 1: the failure is fleet-08', failed.map(customerOf), [MISSING]);
	checks.ok(
		'run 1: the 5 canaries and the items in flight done, the rest not attempted (halfway)',
		done.length >= 5 && notAttempted.length >= 5 && done.length + 1 + notAttempted.length === 20,
		`done ${done.length}, not attempted ${notAttempted.length}`,
	);
	checks.ok(
		'run 1: every not-attempted item is on the error output, paired, with the threshold and counts',
		notAttempted.every(
			(item) =>
				// n8n merges the input item's fields (customerId) into what leaves the error output.
				Object.keys(item.json).every((key) =>
					['error', 'message', 'details', 'customerId'].includes(key),
				) &&
				item.json.customerId === customerOf(item) &&
				/^Not attempted: Stop After Failures \(2%\) was exceeded\. \d+ done, 1 failed, \d+ not attempted$/.test(
					item.json.error,
				),
		),
		JSON.stringify(notAttempted[0]?.json),
	);
	const requests1 = await emulator.requests();
	const untouched = notAttempted.map(customerOf);
	checks.equal(
		'emulator: no request at all for the customers never started',
		requests1.filter((r) => untouched.some((id) => r.user === userOf(id) || r.body?.id === id)),
		[],
	);
	const [report1] = outputs(first, 'Report')[0] ?? [];
	checks.ok(
		'run 1: the report counts changed, failed and not attempted',
		report1?.json.changed.length === done.length &&
			report1.json.failed.length === 1 &&
			report1.json.notAttempted.length === notAttempted.length &&
			/Stop After Failures/.test(report1.json.stoppedBecause ?? ''),
		JSON.stringify(report1?.json),
	);

	// ---- 2. fixed, run again: resume
	await customerSession(emulator, partner, MISSING);
	await emulator.control('DELETE', '/requests');
	const second = await execute(checks, n8n, 'resume');
	const [done2, problems2] = outputs(second, 'Ensure new subject');
	checks.equal(
		'run 2: every customer done, none failed or not attempted',
		[done2.length, problems2.length],
		[20, 0],
	);
	const doneBefore = new Set(done.map(customerOf));
	const requests2 = await emulator.requests();
	checks.equal(
		'emulator: run 2 wrote nothing for the customers done in run 1',
		requests2
			.filter((r) => isWrite(r) && [...doneBefore].some((id) => r.user === userOf(id)))
			.map((r) => `${r.method} ${r.path} ${r.user}`),
		[],
	);
	checks.equal(
		'run 2: those customers are reported unchanged, the others changed',
		done2.map((item) => item.json.unchanged),
		CUSTOMERS.map((id) => doneBefore.has(id)),
	);
	const state = await emulator.state();
	const fleet = state.installations.filter((i) => i.title === 'CRM Leads to Mailer');
	checks.equal(
		'emulator: 20 installations, all active',
		[fleet.length, fleet.every((i) => i.status === 1)],
		[20, true],
	);
	const [report2] = outputs(second, 'Report')[0] ?? [];
	checks.ok(
		'run 2: the report has no failure and nothing not attempted',
		report2?.json.failed.length === 0 && report2.json.notAttempted.length === 0,
		JSON.stringify(report2?.json),
	);
}
