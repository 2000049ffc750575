// `npm run bench:fleet`'s jobs at one size (bench-fleet.mjs): with `--weeks` the year first; the
// nightly pause, a seed, the fleet change and upgrade, the sweep; the pause as one execution
// (`--single`), under the emulator's rate limit, and the faults; each job's figures printed and
// kept in the results, written to `--out` after each size.

import { writeFile } from 'node:fs/promises';

import { faults, fleetSweep, nightlyPause } from './fleetJobs.mjs';
import { FAULTS_AT, ONLY, OUT, RATE_LIMIT_AT, SINGLE } from './fleetOptions.mjs';
import { authPhrase } from './fleetReport.mjs';
import { changeAndUpgrade } from './fleetUpgrade.mjs';
import { fleetYear } from './fleetYear.mjs';

export async function writeResults(results, began) {
	results.setup.benchSeconds = Math.round((Date.now() - began) / 1000);
	await writeFile(OUT, `${JSON.stringify(results, null, 2)}\n`);
}

/** `n` customers. `run`: `{ results, began, clock, emulator, restartWorker }`. */
export async function runSize(bench, n, run) {
	const { results } = run;
	const sizeBegan = Date.now();
	await bench.resetEmulator();
	console.log(`\n${n} customers`);
	if (await yearDone(bench, n, run)) return;
	if (ONLY.includes('nightlyPause')) await pauseNightly(bench, n, results);
	// One fleet in the emulator at a time: 100,000 customers take ~0.7 GB of its memory.
	await bench.resetEmulator();
	const seeded = await bench.seed(n, `c${n}-`);
	await changeAndUpgrade(bench, seeded, results.jobs);
	if (ONLY.includes('fleetSweep')) {
		const sweep = await fleetSweep(bench, seeded);
		results.jobs.fleetSweep[n] = sweep;
		console.log(
			`  fleet sweep: ${sweep.seconds} s (slowest of 2), ${sweep.runsReportedTwice} twice, ${sweep.runsMissed} missed, ${sweep.incidentsResolved} of ${sweep.automationsRecovered} recovered automations resolved; ${authPhrase(sweep)}`,
		);
	}
	if (SINGLE.includes(n)) await pauseAsOne(bench, n, results);
	if (RATE_LIMIT_AT.includes(n)) await pauseRateLimited(bench, n, run);
	if (n === FAULTS_AT) {
		await bench.resetEmulator();
		results.faults = await faults(bench, n, run.restartWorker);
	}
	results.setup.seedSeconds[n] = bench.seeds[n]?.seconds;
	results.setup.emulatorRssAfterSeedMB[n] = bench.seeds[n]?.emulatorRssMB;
	console.log(
		`  (${n} customers: ${Math.round((Date.now() - sizeBegan) / 1000)} s; slowest seed ${bench.seeds[n]?.seconds} s, emulator RSS after it ${bench.seeds[n]?.emulatorRssMB} MB)`,
	);
	await writeResults(results, run.began);
}

/** `--weeks`: the year at `n` customers; true when it is the only job asked for. */
async function yearDone(bench, n, { results, began, clock }) {
	if (!clock) return false;
	results.year[n] = await fleetYear(bench, n, `y${n}-`, clock);
	await writeResults(results, began);
	if (ONLY.length === 1) return true;
	await bench.resetEmulator();
	return false;
}

async function pauseNightly(bench, n, results) {
	const pause = await nightlyPause(bench, n, `p${n}-`);
	results.jobs.nightlyPause[n] = pause;
	console.log(
		`  nightly pause: ${pause.seconds} s, ${pause.failedItems} failed, ${pause.leftActive} left active, ${pause.calls.total} calls; ${authPhrase(pause)}`,
	);
}

async function pauseAsOne(bench, n, results) {
	await bench.resetEmulator();
	const single = await nightlyPause(bench, n, `s${n}-`, { single: true });
	results.single.nightlyPause[n] = single;
	console.log(
		`  nightly pause as one execution: ${single.seconds} s, ${single.failedItems} failed, worker RSS ${single.peakWorkerRssMB} MB`,
	);
}

async function pauseRateLimited(bench, n, { results, emulator }) {
	await bench.resetEmulator();
	await emulator.control('POST', '/rate-limit', {
		maxConcurrent: 20,
		retryAfterSeconds: 1,
		serviceMs: 50,
	});
	const limited = await nightlyPause(bench, n, `r${n}-`);
	await emulator.control('DELETE', '/rate-limit');
	results.rateLimited.nightlyPause[n] = {
		...limited,
		limit: { maxConcurrent: 20, serviceMs: 50 },
	};
	console.log(
		`  nightly pause, rate-limited (20 at once): ${limited.seconds} s, ${limited.failedItems} failed, ${limited.calls.rateLimited} × 429`,
	);
}
