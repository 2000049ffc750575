// The fleet sweep job's parts (fleetJobs.mjs): runs injected, events tallied, what each sweep left in
// n8n's store.
import { mapLimited } from './fleetBench.mjs';
import { JOBS } from './fleetOptions.mjs';
import { storeTraceReport } from './storeTraceReport.mjs';

const SWEEP_NODE = 'New failures, as incidents';

/** One run per customer (their first automation) with this outcome; the failed runs' ids go to `injected`. */
export async function injectRuns(bench, customers, outcome, injected) {
	await mapLimited(customers, 16, async (customer) => {
		const run = await bench.emulator.control('POST', '/runs', {
			bundleId: customer.bundleIds[0],
			outcome,
		});
		if (outcome === 'failed') injected.push(String(run.id));
	});
}

/** Which recovered customers got no incidentResolved, by their place in the seed. */
export function logUnresolved(seeded, resolvedOf) {
	const unresolved = seeded
		.map(({ id }, i) => [id, i])
		.filter(([id, i]) => i % 20 === 0 && !resolvedOf.has(id));
	console.log(JSON.stringify({ unresolved: unresolved.length, first: unresolved.slice(0, 40) }));
}

/** Counts one sweep execution's events into `events` (by kind) and `tally` (across sweeps). */
export function tallyEvents(runData, events, tally) {
	for (const item of runData?.[SWEEP_NODE]?.[0]?.data?.main?.[0] ?? []) {
		events[item.json.event] = (events[item.json.event] ?? 0) + 1;
		if (item.json.event === 'incidentOpened')
			tally.opened.push(String(item.json.run?.id ?? item.json.firstFailedRunId));
		if (item.json.event === 'incidentResolved') {
			tally.resolved++;
			tally.resolvedOf.add(String(item.json.endUserId));
		}
	}
}

/** After one sweep: its static data size, and with BENCH_STORE_TRACE / BENCH_FLEET_DEBUG what n8n's store held. */
export async function afterSweep(bench, { figures, round, startedAt, events }) {
	const [[memoryBytes] = []] = await bench.postgres.psql(
		`SELECT octet_length("staticData"::text) FROM workflow_entity WHERE id = '${JOBS.fleetSweep.batchId}'`,
	);
	figures.staticDataBytes = Number(memoryBytes ?? 0);
	console.log(
		`    sweep ${round}: ${figures.seconds} s, ${figures.calls.total} calls, ${figures.failedItems} failed, static data ${figures.staticDataBytes} bytes`,
	);
	if (process.env.BENCH_STORE_TRACE) {
		figures.storeTrace = await storeTraceReport(
			process.env.BENCH_STORE_TRACE,
			startedAt,
			Date.now(),
		);
		console.log(
			`    sweep ${round}, n8n's store from inside the workers: ${JSON.stringify(figures.storeTrace)}`,
		);
	}
	if (process.env.BENCH_FLEET_DEBUG) {
		// The records of the node's list in n8n's store: what the gates recorded, less what was lost.
		const [[storeRecords] = []] = await bench.postgres.psql(
			`SELECT json_array_length(value::json->'data') FROM processed_data WHERE "workflowId" = '${JOBS.fleetSweep.batchId}'`,
		);
		console.log(JSON.stringify({ byKind: figures.calls.byKind, events, storeRecords }));
	}
}
