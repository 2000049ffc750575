// `npm run bench:fleet`'s jobs: the nightly pause, the fleet change, the sweep with incidents, and the
// faults (bad customers, a worker killed halfway). Each returns its figures (scripts/lib/fleetBench.mjs).

import { readFile } from 'node:fs/promises';

import { convergence } from './fleetOutcome.mjs';
import { BATCH, SWEEP_MAX_RUNS_TOTAL } from './fleetOptions.mjs';
import { afterSweep, injectRuns, logUnresolved, tallyEvents } from './fleetSweepParts.mjs';

/** The seed's id prefix: customer ids are `<prefix><5 digits>`. */
const prefixOf = (seeded) => seeded[0].id.slice(0, -5);

export async function nightlyPause(bench, n, prefix, options = {}) {
	const seeded = await bench.seed(n, prefix);
	const customers = seeded.map(({ id }) => ({ customerId: id }));
	const { figures } = await bench.runJob('nightlyPause', customers, options);
	const status = await bench.fleetStatus(prefix);
	let leftActive = 0;
	for (const { id } of seeded)
		for (const [, , state] of status[id] ?? []) if (Number(state) === 1) leftActive++;
	figures.leftActive = leftActive;
	return figures;
}

export async function fleetChange(bench, seeded, subject, options = {}) {
	const customers = (options.customers ?? seeded.map(({ id }) => id)).map((customerId) => ({
		customerId,
		subject,
	}));
	const result = await bench.runJob('fleetChange', customers, options);
	const check = convergence(
		await bench.fleetStatus(prefixOf(seeded)),
		options.convergedOf ?? seeded.map(({ id }) => id),
		subject,
	);
	Object.assign(result.figures, check);
	return result;
}

/**
 * Once half the PUTs went out: kills (kill -9) a worker running one of the change's executions,
 * and notes it in `killer` ({ worker, killedAt: { puts, at } }). Only once.
 */
async function killHalfway(bench, n, own, killer) {
	if (killer.killedAt) return;
	const summary = await bench.emulator.control('GET', '/requests/summary');
	const puts = summary.byKind['PUT /bundle/data/{id}'] ?? 0;
	if (puts < n / 2) return;
	killer.worker = await workerRunningOne(bench, own);
	if (!killer.worker) return;
	killer.killedAt = { puts, at: Date.now() };
	process.kill(killer.worker.child.pid, 'SIGKILL');
	console.log(
		`    killed ${killer.worker.name} (pid ${killer.worker.child.pid}, kill -9) after ${puts} of ${n} PUTs`,
	);
}

export async function fleetSweep(bench, seeded) {
	const injected = [];
	const inject = (customers, outcome) => injectRuns(bench, customers, outcome, injected);
	// Sweep 1: every 20th customer has a new failed run. Sweep 2: those recover (a succeeded run),
	// and every 20th from the 10th on fails.
	const first = seeded.filter((_, i) => i % 20 === 0);
	const second = seeded.filter((_, i) => i % 20 === 10);
	const customers = seeded.map(({ id }) => ({ customerId: id }));
	const sweeps = [];
	const tally = { opened: [], resolved: 0, resolvedOf: new Set() };
	const { opened, resolvedOf } = tally;
	for (const [round, before] of [
		[1, () => inject(first, 'failed')],
		[
			2,
			async () => {
				await inject(first, 'succeeded');
				await inject(second, 'failed');
			},
		],
	]) {
		await before();
		const events = {};
		const startedAt = Date.now();
		const { figures } = await bench.runJob('fleetSweep', customers, {
			onRun: (runData) => tallyEvents(runData, events, tally),
		});
		sweeps.push(figures);
		await afterSweep(bench, { figures, round, startedAt, events });
	}
	if (process.env.BENCH_FLEET_DEBUG) logUnresolved(seeded, resolvedOf);
	const slowest = sweeps.reduce((a, b) => (b.seconds > a.seconds ? b : a));
	// Sets, not indexOf: 10,000 incidents at 100,000 customers.
	const seen = new Set(opened);
	const twice = opened.length - seen.size;
	const missed = injected.filter((id) => !seen.has(id)).length;
	return {
		...slowest,
		seconds: slowest.seconds,
		failedItems: sweeps.reduce((sum, s) => sum + s.failedItems, 0),
		sweepsSeconds: sweeps.map((s) => s.seconds),
		maxRunsTotal: SWEEP_MAX_RUNS_TOTAL,
		failedRunsInjected: injected.length,
		incidentsOpened: opened.length,
		incidentsResolved: tally.resolved,
		automationsRecovered: first.length,
		runsReportedTwice: twice,
		runsMissed: missed,
	};
}

/**
 * `count` of the seeded customers spread evenly over the list the fan-out cuts, none among the first
 * 10 of its batch (the canaries).
 */
function spread(seeded, customerIds, count) {
	const byId = new Map(seeded.map((customer) => [customer.id, customer]));
	const spots = customerIds
		.map((id, i) => (i % BATCH >= 10 && byId.has(id) ? i : -1))
		.filter((i) => i >= 0);
	const step = Math.max(1, Math.floor(spots.length / count));
	return Array.from({ length: count }, (_, k) =>
		byId.get(customerIds[spots[(k * step + Math.floor(step / 2)) % spots.length]]),
	);
}

/**
 * The customer list with the invalid End User IDs spread through it, placed batch by batch in the
 * list the fan-out cuts, so that none is among a batch's canaries (the first 10 of each batch): a
 * failing canary stops its batch, as it should, which is not what this run measures.
 */
function withInvalid(seeded, invalid) {
	const ids = seeded.map(({ id }) => id);
	const batches = Math.max(1, Math.floor((ids.length + invalid.length) / BATCH)); // full ones
	const perBatch = Math.ceil(invalid.length / batches);
	const out = [];
	let next = 0;
	while (ids.length || next < invalid.length) {
		const batch = ids.splice(0, BATCH - Math.min(perBatch, invalid.length - next));
		const add = invalid.slice(next, next + BATCH - batch.length);
		next += add.length;
		for (const [k, id] of add.entries())
			batch.splice(10 + Math.floor(((k + 0.5) * (batch.length - 10)) / add.length), 0, id);
		out.push(...batch);
	}
	return out;
}

/** Half the failing customers' installations answer 503, the other half drop the connection. */
async function injectFaults(bench, failing) {
	const half = Math.ceil(failing.length / 2);
	const rule = (list) =>
		`^/solution/installation/(${list.map((c) => c.installationId).join('|')})$`;
	await bench.emulator.control('POST', '/faults', {
		path: rule(failing.slice(0, half)),
		regex: true,
		status: 503,
		times: 1e9,
	});
	if (failing.length > half)
		await bench.emulator.control('POST', '/faults', {
			path: rule(failing.slice(half)),
			regex: true,
			reset: 'before',
			times: 1e9,
		});
}

/** The worker (by its log) that started one of these executions still running, if any. */
async function workerRunningOne(bench, own) {
	const running = new Set(own.filter((e) => e.status === 'running').map((e) => String(e.id)));
	for (const role of bench.roles.filter((r) => r.name.startsWith('worker'))) {
		const log = await readFile(role.logFile, 'utf8').catch(() => '');
		if ([...log.matchAll(/Worker started execution (\d+)/g)].some((m) => running.has(m[1])))
			return role;
	}
	return undefined;
}

/** A worker killed halfway through the next change (one that runs a batch of it), then a rerun. */
async function killAndRerun(bench, seeded, n, restartWorker) {
	const killer = {};
	const goodIds = seeded.map(({ id }) => id);
	const killRun = await fleetChange(bench, seeded, 'v3', {
		customers: goodIds,
		// Only once a worker was killed: its executions stay "running". Before that, a batch of a
		// large fleet runs for minutes without a status change, and is not stuck.
		allowStuck: () =>
			killer.killedAt && Date.now() - killer.killedAt.at > 60_000 ? 60_000 : false,
		onTick: (own) => killHalfway(bench, n, own, killer),
	});
	const { worker } = killer;
	if (worker) await restartWorker(worker);
	const rerun = await fleetChange(bench, seeded, 'v3', { customers: goodIds });
	console.log(
		`    after the kill: ${killRun.figures.notConverged} not converged; rerun ${rerun.figures.seconds} s: ${rerun.figures.notConverged} not converged, ${rerun.figures.duplicateInstallations} duplicates`,
	);
	return { killRun, rerun, ...killer };
}

/** 1% invalid End User IDs, 1% whose calls fail; then a worker killed halfway through, and a rerun. */
export async function faults(bench, n, restartWorker) {
	const seeded = await bench.seed(n, `f${n}-`);
	const bad = Math.max(1, Math.round(n / 100));
	const invalid = Array.from({ length: bad }, (_, k) => `no-such-customer-${k}`);
	const customerIds = withInvalid(seeded, invalid);
	const failing = spread(seeded, customerIds, bad);
	const failingIds = new Set(failing.map((c) => c.id));
	await injectFaults(bench, failing);
	// Stop After Failures as a count above the bad customers a batch can hold (1% would stop them all).
	const stopAfterFailures = String(Math.ceil(BATCH / 20));
	const run = await fleetChange(bench, seeded, 'v2', {
		customers: customerIds,
		convergedOf: seeded.map(({ id }) => id).filter((id) => !failingIds.has(id)),
		extra: { stopAfterFailures },
	});
	await bench.emulator.control('DELETE', '/faults');
	const expected = new Set([...invalid, ...failingIds]);
	const failedAlone =
		run.failedCustomers.size === expected.size &&
		[...expected].every((id) => run.failedCustomers.has(id));
	console.log(
		`    faults: ${run.figures.seconds} s, ${run.figures.failedItems} failed (${expected.size} bad), others not converged ${run.figures.notConverged}`,
	);

	const { killRun, rerun, worker, killedAt } = await killAndRerun(bench, seeded, n, restartWorker);
	return {
		customers: n,
		badCustomers: { invalidEndUserIds: invalid.length, failingCalls: failing.length },
		stopAfterFailures,
		failedItems: run.figures.failedItems,
		failedAlone,
		othersConverged: run.figures.notConverged === 0,
		othersNotConverged: run.figures.notConverged,
		seconds: run.figures.seconds,
		afterWorkerKill: {
			killed: worker?.name ?? null,
			killedAfterPuts: killedAt?.puts ?? null,
			executionsLeftRunning: killRun.figures.executionsLeftRunning ?? 0,
			notConvergedBeforeRerun: killRun.figures.notConverged,
			rerunSeconds: rerun.figures.seconds,
			rerunFailedItems: rerun.figures.failedItems,
			notConverged: rerun.figures.notConverged,
			duplicateInstallations: rerun.figures.duplicateInstallations,
		},
	};
}
