// On Error → "Continue (using error output)" in the real n8n: failed items must leave through the
// node's error output and good ones through its success output, for a single-item operation
// (Installation → Get) and for Bundle Data → Update's batch path (Pause, Update, Then Start Again).
// The workflow (fixtures/error-output.workflow.json) wires each output to its own No-Op node.

import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const ERROR_OUTPUT_WORKFLOW = {
	id: 'AlbatoErrorOut01',
	file: 'scripts/e2e/fixtures/error-output.workflow.json',
};

/** The items (json) a node sent on each of its outputs in its first run. */
const outputs = (runData, name) =>
	(runData[name]?.[0]?.data?.main ?? []).map((items) => (items ?? []).map((item) => item.json));
const received = (runData, name) => outputs(runData, name)[0] ?? [];

/** Installation → Get: 5001 and 5002 exist, 999999 does not. */
function checkGetOutputs(checks, runData) {
	const [read, readFailed] = outputs(runData, 'Get installation');
	checks.equal(
		'Get installation: success output → 5001, 5002',
		(read ?? []).map((json) => json.id),
		[5001, 5002],
	);
	checks.equal(
		'Get installation: error output → the one for 999999',
		(readFailed ?? []).map((json) => json.id),
		[999999],
	);
	const failed = readFailed?.[0] ?? {};
	checks.ok(
		'the failed item says what failed: error + message with the call and status',
		failed.error === 'Installation 999999 not found' &&
			/GET \/solution\/installation\/999999 → 404/.test(failed.message ?? ''),
		JSON.stringify(failed),
	);
	checks.equal(
		'the No-Op on the error output received it',
		received(runData, 'Read failed').map((json) => json.id),
		[999999],
	);
	checks.equal(
		'the No-Op on the success output received the others',
		received(runData, 'Read').map((json) => json.id),
		[5001, 5002],
	);
}

export async function checkErrorOutput(checks, n8n, emulator, repoRoot) {
	await emulator.reset();
	const workflow = JSON.parse(
		await readFile(path.join(repoRoot, ERROR_OUTPUT_WORKFLOW.file), 'utf8'),
	);
	await checks.step('import:workflow (error output)', () =>
		n8n.importWorkflow({ ...workflow, id: ERROR_OUTPUT_WORKFLOW.id }),
	);
	const result = await checks.step('n8n execute runs "error output"', async () => {
		const executed = await n8n.execute(ERROR_OUTPUT_WORKFLOW.id);
		if (!executed.run)
			throw new Error(
				`no run JSON in the output (exit ${executed.code})\n${executed.output.slice(-3000)}`,
			);
		return executed;
	});
	const runData = result.run.data.resultData.runData;
	checks.ok(
		'execution status "success" (failures were routed, not thrown)',
		n8n.succeeded(result),
		() => JSON.stringify(result.run.data.resultData.error ?? {}).slice(0, 800),
	);

	checkGetOutputs(checks, runData);

	// Bundle Data → Update, pause-and-resume batch: the unknown field code fails, the others succeed.
	const [updated, updateFailed] = outputs(runData, 'Update fields');
	checks.equal(
		'Update fields: success output → steps 9002 and 9006',
		(updated ?? []).map((json) => json.id),
		[9002, 9006],
	);
	checks.equal(
		'Update fields: error output → the refused change (unknown field "nope")',
		(updateFailed ?? []).map((json) => [json.step, /nope/.test(json.error ?? '')]),
		[[9002, true]],
	);
	checks.equal(
		'the No-Op on the update error output received it',
		received(runData, 'Update failed').length,
		1,
	);
	const state = await emulator.state();
	checks.equal(
		'emulator: installation 5001 is active again after its updates',
		state.installations.find((i) => i.id === 5001)?.status,
		1,
	);

	await checkRestartFailure(checks, n8n, emulator);
}

/**
 * The same workflow with every PLAY of installation 5001 failing (503): its applied update must
 * leave through the error output, saying it is left paused (n8n 2.41 routes only error/message).
 */
async function checkRestartFailure(checks, n8n, emulator) {
	await emulator.reset();
	await emulator.control('POST', '/faults', {
		method: 'PLAY',
		path: '/solution/installation/5001',
		status: 503,
		times: 20,
	});
	const result = await checks.step('n8n execute runs "error output" with PLAY failing', () =>
		n8n.execute(ERROR_OUTPUT_WORKFLOW.id),
	);
	const runData = result.run?.data?.resultData?.runData ?? {};
	const [updated, updateFailed] = outputs(runData, 'Update fields');
	checks.equal(
		'restart fails: success output → only the other installation (9006)',
		(updated ?? []).map((json) => json.id),
		[9006],
	);
	const leftPaused = (updateFailed ?? []).filter((json) =>
		/^Installation 5001 is left paused/.test(json.error ?? ''),
	);
	checks.ok(
		'restart fails: the applied update of 5001 is on the error output, "left paused", how to start it, what applied',
		leftPaused.length === 1 &&
			/Start it with Installation → Start/.test(leftPaused[0].message ?? '') &&
			/step 9002 \(subject\)/.test(leftPaused[0].message ?? ''),
		JSON.stringify(updateFailed),
	);
	checks.equal(
		'restart fails: the No-Op on the error output received it (and the refused change)',
		received(runData, 'Update failed').length,
		2,
	);
	const state = await emulator.state();
	checks.equal(
		'emulator: installation 5001 is paused (its restart failed)',
		state.installations.find((i) => i.id === 5001)?.status,
		0,
	);
	await emulator.control('DELETE', '/faults');
}
