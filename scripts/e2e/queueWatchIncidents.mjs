// Run → Get New in queue mode, the incidents example: pairs of sweeps at once while every customer's
// first automation fails and recovers (queue.mjs runs it after queueWatch.mjs's sweeps).
import { returnedBy, sweepTwiceAtOnce, WATCH_INCIDENTS, withSlowRunLists } from './queueWatch.mjs';

/** Customer → their first automation (the lowest bundle id), from bundle id → customer. */
function firstAutomations(bundles) {
	const first = new Map();
	for (const [bundleId, customer] of Object.entries(bundles))
		if (!first.has(customer) || Number(bundleId) < first.get(customer))
			first.set(customer, Number(bundleId));
	return first;
}

/**
 * Incidents in queue mode: pairs of sweeps at once of the example as it is, while the first
 * automation of every customer (`bundles`: bundle id → customer, from checkOverlappingSweeps)
 * fails, fails again and recovers. Answers the number of sweeps.
 */
export async function checkOverlappingIncidents(
	checks,
	{ emulator, n8n, webhookBase, post, workerOf, bundles },
) {
	const url = `${webhookBase}/webhook/${WATCH_INCIDENTS.webhookPath}`;
	const first = firstAutomations(bundles);
	const record = async (outcome) => {
		for (const bundleId of first.values())
			await emulator.control('POST', '/runs', { bundleId, outcome });
	};
	const steps = [
		['the first sweeps (every automation succeeded last)', null, []],
		['one failure each', 'failed', ['incidentOpened 1']],
		['another failure each', 'failed', []],
		['a success each', 'succeeded', ['incidentResolved 2']],
	];
	let sweeps = 0;
	const workers = new Set();
	await withSlowRunLists(emulator, async () => {
		for (const [name, outcome, expected] of steps) {
			if (outcome) await record(outcome);
			const pair = await sweepTwiceAtOnce(checks, {
				n8n,
				post,
				url,
				workflowId: WATCH_INCIDENTS.id,
				label: name,
			});
			if (!pair) return;
			sweeps += 2;
			const items = [];
			for (const execution of pair) {
				workers.add(await workerOf(execution.id));
				const { runs, errors } = await returnedBy(n8n, execution.id);
				checks.ok(
					`${name}: sweep #${execution.id} succeeded, no customer on the error output`,
					execution.status === 'success' && errors.length === 0,
					() => JSON.stringify([execution.status, errors.slice(0, 2)]),
				);
				items.push(...runs);
			}
			const got = items
				.map((item) => `${item.endUserId} ${item.bundleId} ${item.event} ${item.failedRuns}`)
				.sort();
			const want = [...first.entries()]
				.flatMap(([customer, bundleId]) =>
					expected.map((event) => `${customer} ${bundleId} ${event}`),
				)
				.sort();
			checks.equal(
				`${name}: across both sweeps, ${want.length} incident items, each once`,
				got,
				want,
			);
		}
	});
	console.log(`    incident sweeps ran on: ${[...workers].join(', ')}`);
	return sweeps;
}
