// `npm run bench:fleet`'s results: the JSON document (`--out FILE`, shape) and the table
// it prints. Pure functions, so that a unit test can check them without n8n.

/** Sizes from `--customers 100,1000`: whole numbers ≥ 1, sorted, without repeats. */
export function parseSizes(text) {
	const sizes = String(text)
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean)
		.map(Number);
	if (!sizes.length || sizes.some((n) => !Number.isInteger(n) || n < 1))
		throw new Error(`--customers wants whole numbers ≥ 1 separated by commas, got "${text}"`);
	return [...new Set(sizes)].sort((a, b) => a - b);
}

/** An empty results document for these sizes. */
export function emptyResults(customers, setup = {}) {
	return {
		customers,
		jobs: { nightlyPause: {}, fleetChange: {}, fleetSweep: {}, fleetUpgrade: {} },
		single: { nightlyPause: {} },
		rateLimited: { nightlyPause: {} },
		faults: null,
		setup,
	};
}

/** Rounds a number of seconds to 0.1 s. */
export const roundSeconds = (ms) => Math.round(ms / 100) / 10;

/** Bytes as MB with one decimal. */
export const megabytes = (bytes) => Math.round(bytes / 104857.6) / 10;

/** Seconds each job may take: the targets at 10,000 customers (and below), and at 100,000. */
const JOB_TARGETS = {
	nightlyPause: { label: 'nightly pause', seconds: { 10000: 300, 100000: 900 } },
	fleetChange: { label: 'fleet change', seconds: { 10000: 600, 100000: 1800 } },
	fleetSweep: { label: 'fleet sweep', seconds: { 10000: 180, 100000: 600 } },
	// Its own target is 2.5× the fleet change's time in the same run (upgradeTarget); these bound it.
	fleetUpgrade: { label: 'upgrade', seconds: { 10000: 1500, 100000: 4500 } },
};
/** The upgrade may take this many times the fleet change's time in the same run. */
export const UPGRADE_TIME_FACTOR = 2.5;
const secondsTarget = (job, n) => JOB_TARGETS[job].seconds[n >= 100000 ? 100000 : 10000];

/** The sizes whose targets are checked: 10,000 and up, and the largest (a small run's own check). */
const checkedSizes = (results) => {
	const largest = Math.max(...results.customers);
	return results.customers.filter((n) => n >= 10000 || n === largest);
};

/** The 401 answers and the figures behind them, one phrase (the job lines). */
export function authPhrase(f) {
	const byKind = f.auth?.unauthorizedByTokenKind ?? {};
	return `${f.unauthorized ?? 0} × 401 (master ${byKind.master ?? 0}, end user ${byKind.endUser ?? 0}), ${f.tokenCalls ?? 0} token calls (≤ ${f.maxTokenCallsPerCustomerPerWorker ?? 0} per customer), emulator peak ${f.emulatorPeakRssMB ?? '?'} MB`;
}

/** Growth from the smallest size ≥ 1,000 to the largest: seconds ratio against customers ratio. */
export function growth(results, job) {
	const sizes = Object.keys(results.jobs[job] ?? {})
		.map(Number)
		.filter((n) => results.jobs[job][n]?.seconds > 0)
		.sort((a, b) => a - b);
	const from = sizes.find((n) => n >= 1000);
	const to = sizes.at(-1);
	if (!from || !to || to === from) return undefined;
	const ratio = results.jobs[job][to].seconds / results.jobs[job][from].seconds;
	return { from, to, ratio: Math.round(ratio * 100) / 100, limit: (to / from) * 1.1 };
}

/**
 * Targets of issues 32 and 41, each `{ target, value, met }`, from what was measured (missing: not
 * run): per job at 10,000 and 100,000 customers (or the largest size of a smaller run).
 */
export function targets(results) {
	const out = {};
	const largest = Math.max(...results.customers);
	for (const [job, { label }] of Object.entries(JOB_TARGETS))
		for (const size of checkedSizes(results)) jobTargets(results, job, label, size, out);
	for (const [job, { label }] of Object.entries(JOB_TARGETS)) {
		const grown = growth(results, job);
		if (grown)
			out[`${job} growth`] = {
				target: `${label}, ${grown.from} → ${grown.to} customers: time ≤ ${Math.round(grown.limit * 10) / 10}×`,
				value: `${grown.ratio}×`,
				met: grown.ratio <= grown.limit,
			};
	}
	const emulatorPeaks = Object.values(results.jobs)
		.map((byN) => byN?.[largest]?.emulatorPeakRssMB)
		.filter((mb) => mb !== undefined);
	if (emulatorPeaks.length)
		out[`emulator@${largest}`] = {
			target: `the emulator's peak RSS stated (${largest} customers)`,
			value: `peak ${Math.max(...emulatorPeaks)} MB during a job; ${results.setup?.emulatorRssAfterSeedMB?.[largest] ?? '?'} MB after a seed of ${results.setup?.seedSeconds?.[largest] ?? '?'} s`,
			met: true,
		};
	const auth = authTarget(results);
	if (auth) out.auth = auth;
	return otherTargets(results, out);
}

/**
 * With a strict reading, Auto's discovery: every 401 of the run by token kind, at most one per
 * token kind per worker process (the workers, and one more for a worker restarted after the kill).
 */
function authTarget(results) {
	const strict = results.setup?.strictAuth;
	if (!strict || strict === 'lenient') return undefined;
	const totals = { master: 0, endUser: 0 };
	for (const group of [results.jobs, results.single, results.rateLimited])
		for (const byN of Object.values(group ?? {}))
			for (const f of Object.values(byN ?? {}))
				for (const [kind, count] of Object.entries(f.auth?.unauthorizedByTokenKind ?? {}))
					totals[kind] = (totals[kind] ?? 0) + count;
	const processes =
		(results.setup?.queueMode?.workers ?? 2) + (results.faults?.afterWorkerKill?.killed ? 1 : 0);
	return {
		target: `strictAuth ${strict}: ≤ 1 refused request (401) per token kind per worker process (${processes})`,
		value: `401s over the run: master token ${totals.master}, end-user tokens ${totals.endUser}`,
		met: Object.values(totals).every((count) => count <= processes),
	};
}

/** What keeps one job's figures from being clean, as phrases. */
function problemsOf(job, figures) {
	const problems = [];
	if (figures.failedItems) problems.push(`${figures.failedItems} failed`);
	if (figures.duplicateInstallations) problems.push(`${figures.duplicateInstallations} duplicates`);
	if (figures.notConverged) problems.push(`${figures.notConverged} not converged`);
	if (figures.runsReportedTwice) problems.push(`${figures.runsReportedTwice} reported twice`);
	if (figures.runsMissed) problems.push(`${figures.runsMissed} missed`);
	if (figures.bothActive?.events || figures.bothActive?.maxAtOnce)
		problems.push(`${figures.bothActive.events} times two copies active`);
	if (figures.incidentsResolved !== figures.automationsRecovered)
		problems.push(
			`${figures.incidentsResolved} incidents resolved of ${figures.automationsRecovered} recovered`,
		);
	if (job === 'nightlyPause' && figures.maxTokenCallsPerCustomerPerWorker > 1)
		problems.push(`${figures.maxTokenCallsPerCustomerPerWorker} token calls per customer`);
	return problems;
}

/** One job's targets at `size` customers: time, a clean run, the workers' memory. */
function jobTargets(results, job, label, size, out) {
	const seconds = secondsTarget(job, size);
	const figures = results.jobs[job]?.[size];
	if (!figures) return;
	const problems = problemsOf(job, figures);
	out[`${job}@${size}`] = {
		target: `${label} of ${size} customers ≤ ${seconds} s, clean`,
		value: `${figures.seconds} s${problems.length ? `, ${problems.join(', ')}` : ''}`,
		met: figures.seconds <= seconds && problems.length === 0,
	};
	if (figures.peakWorkerRssMB !== undefined && size >= 10000)
		out[`${job}@${size} RSS`] = {
			target: `${label} of ${size} customers: peak worker RSS ≤ 1536 MB`,
			value: `${figures.peakWorkerRssMB} MB`,
			met: figures.peakWorkerRssMB <= 1536,
		};
}

function otherTargets(results, out) {
	for (const size of checkedSizes(results)) upgradeTarget(results, size, out);
	const limited = Object.entries(results.rateLimited?.nightlyPause ?? {});
	if (limited.length)
		out.rateLimited = {
			target: '0 failed items at every size under the rate limit',
			value: limited.map(([n, f]) => `${n}: ${f.failedItems} failed in ${f.seconds} s`).join('; '),
			met: limited.every(([, f]) => f.failedItems === 0),
		};
	if (results.faults) {
		const f = results.faults;
		out.faults = {
			target:
				'bad customers fail alone; the others converge; after a worker kill and a rerun all converge, no duplicate',
			value: `failed alone ${f.failedAlone}, others converged ${f.othersConverged}, after kill: ${f.afterWorkerKill?.notConverged} not converged, ${f.afterWorkerKill?.duplicateInstallations} duplicates`,
			met:
				f.failedAlone === true &&
				f.othersConverged === true &&
				f.afterWorkerKill?.notConverged === 0 &&
				f.afterWorkerKill?.duplicateInstallations === 0,
		};
	}
	return out;
}

/** The upgrade's time against the fleet change's in the same run, at `size` customers. */
function upgradeTarget(results, size, out) {
	const upgrade = results.jobs.fleetUpgrade?.[size];
	const change = results.jobs.fleetChange?.[size];
	if (!upgrade || !change) return;
	const ratio = Math.round((upgrade.seconds / change.seconds) * 100) / 100;
	out[`fleetUpgrade@${size} vs change`] = {
		target: `upgrade of ${size} customers ≤ ${UPGRADE_TIME_FACTOR}× the fleet change's time in the same run`,
		value: `${upgrade.seconds} s against ${change.seconds} s: ${ratio}×`,
		met: ratio <= UPGRADE_TIME_FACTOR,
	};
}

const cell = (value) => (value === undefined || value === null ? '' : String(value));

/** The printed table: one row per job and size (markdown, so that docs can take it as it is). */
export function table(results) {
	const rows = [
		[
			'Job',
			'Customers',
			'Seconds',
			'Failed',
			'Calls',
			'429s',
			'401s',
			'Token calls / customer',
			'Peak RSS MB (main / workers / webhook)',
			'Emulator peak MB',
			'Stored MB',
			'Executions',
		],
	];
	const add = (label, byN) => {
		for (const n of Object.keys(byN ?? {}).sort((a, b) => a - b)) {
			const f = byN[n];
			const rss = f.rssMB
				? `${cell(f.rssMB.main)} / ${Object.entries(f.rssMB)
						.filter(([name]) => name.startsWith('worker'))
						.map(([, mb]) => mb)
						.join(', ')} / ${cell(f.rssMB.webhook)}`
				: '';
			rows.push([
				label,
				n,
				cell(f.seconds),
				cell(f.failedItems),
				cell(f.calls?.total),
				cell(f.calls?.rateLimited),
				cell(f.unauthorized),
				cell(f.maxTokenCallsPerCustomerPerWorker),
				rss,
				cell(f.emulatorPeakRssMB),
				cell(f.storedMB),
				f.executionsPerWorker
					? Object.values(f.executionsPerWorker).join(' + ')
					: cell(f.executions),
			]);
		}
	};
	add('nightly pause', results.jobs.nightlyPause);
	add('fleet change', results.jobs.fleetChange);
	add('fleet sweep', results.jobs.fleetSweep);
	add('upgrade', results.jobs.fleetUpgrade);
	add('nightly pause, one execution', results.single?.nightlyPause);
	add('nightly pause, rate-limited', results.rateLimited?.nightlyPause);
	const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
	const line = (row) => `| ${row.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
	return [
		line(rows[0]),
		`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
		...rows.slice(1).map(line),
	].join('\n');
}

/** The targets as printed lines. */
export function targetLines(results) {
	return Object.entries(targets(results)).map(
		([name, t]) => `${t.met ? 'met   ' : 'MISSED'} ${name}: ${t.value} (target: ${t.target})`,
	);
}
