// Where this n8n sends the rollout guard's items under "Continue (using error output)", for the
// node at version 3 and at version 2 side by side (fixtures/error-routing.workflow.json): 6
// installations read one at a time, the 2nd and 4th missing, Stop After Failures 1, so items 0
// and 2 are done, 1 and 3 failed and 4 and 5 never started.
//
// Version 3 must put exactly the done items on the success output on every n8n. Version 2's
// never-started items carry `details`, which n8n routes to the error output only from 2.36 on
// (test/node/errorOutputRouting.test.ts has the rule of each n8n-core): measured here, and checked
// against that rule.

import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const ERROR_ROUTING_WORKFLOW = {
	id: 'AlbatoErrRouting',
	file: 'scripts/e2e/fixtures/error-routing.workflow.json',
};

const outputs = (runData, name) =>
	(runData[name]?.[0]?.data?.main ?? []).map((items) => items ?? []);
const paired = (items) => items.map((item) => item.pairedItem?.item ?? item.pairedItem?.[0]?.item);
const notAttempted = (item) => String(item.json.error ?? '').startsWith('Not attempted:');

/** True when n8n `version` routes `details` (n8n-core 2.36 and later). */
export function routesDetails(version) {
	const [major, minor] = version.split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 36);
}

/**
 * Runs the workflow with `n8n execute` and checks it. Returns where version 2's never-started
 * items came out (`'error'` or `'success'`), for the README's compatibility table.
 */
export async function checkErrorRouting(checks, n8n, emulator, repoRoot, version) {
	await emulator.reset();
	const workflow = JSON.parse(
		await readFile(path.join(repoRoot, ERROR_ROUTING_WORKFLOW.file), 'utf8'),
	);
	await checks.step('import:workflow (error routing)', () =>
		n8n.importWorkflow({ ...workflow, id: ERROR_ROUTING_WORKFLOW.id }),
	);
	const result = await checks.step('n8n execute runs "error routing"', async () => {
		const executed = await n8n.execute(ERROR_ROUTING_WORKFLOW.id);
		if (!executed.run)
			throw new Error(`no run JSON (exit ${executed.code})\n${executed.output.slice(-3000)}`);
		return executed;
	});
	const runData = result.run.data.resultData.runData;

	checkVersion3(checks, runData);

	const [done2 = [], problems2 = []] = outputs(runData, 'Get at version 2');
	const whereV2 = paired(problems2.filter(notAttempted)).length === 2 ? 'error' : 'success';
	const expected = routesDetails(version) ? 'error' : 'success';
	checks.equal(
		`version 2 (saved workflows): never-started items, with details, on the ${expected} output (n8n ${version})`,
		whereV2,
		expected,
	);
	checks.equal(
		'version 2: the failed items are on the error output',
		paired(problems2.filter((item) => !notAttempted(item))),
		[1, 3],
	);
	if (whereV2 === 'success')
		checks.equal(
			'version 2: beside the done items, each marked details.notAttempted',
			paired(done2.filter((item) => item.json.details?.notAttempted === true)),
			[4, 5],
		);
	return { version2NotAttempted: whereV2 };
}

/** Version 3: done items on the success output; failed and never-started ones on the error output. */
function checkVersion3(checks, runData) {
	const [done3 = [], problems3 = []] = outputs(runData, 'Get at version 3');
	checks.equal('version 3: the success output holds the done items only', paired(done3), [0, 2]);
	checks.equal(
		'version 3: the failed and never-started items are on the error output, paired',
		paired(problems3),
		[1, 3, 4, 5],
	);
	checks.equal(
		'version 3: the error output says which were never started',
		paired(problems3.filter(notAttempted)),
		[4, 5],
	);
	checks.ok(
		'version 3: an error item is { error, message } (and the input item’s id n8n merges in)',
		problems3.every((item) =>
			Object.keys(item.json).every((key) => ['error', 'message', 'id'].includes(key)),
		),
		JSON.stringify(problems3[3]?.json),
	);
	checks.equal(
		'version 3: the No-Op behind the error output received them',
		(runData['Failed or not attempted (version 3)']?.[0]?.data?.main?.[0] ?? []).length,
		4,
	);
}
