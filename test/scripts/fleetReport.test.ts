/** bench:fleet's JSON and table (scripts/lib/fleetReport.mjs, an ES module: run in a child Node). */
import { execFileSync } from 'child_process';
import path from 'path';

const lib = path.join(__dirname, '..', '..', 'scripts', 'lib', 'fleetReport.mjs');

/** Calls the module's functions in a child process; returns what `script` prints as JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the child
function run(script: string): any {
	const code = `import * as report from ${JSON.stringify(lib)};\nconst out = (() => { ${script} })();\nprocess.stdout.write(JSON.stringify(out));`;
	return JSON.parse(
		execFileSync(process.execPath, ['--input-type=module', '-e', code], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		}),
	);
}

const figures = (seconds: number, extra = {}) => ({
	seconds,
	failedItems: 0,
	maxTokenCallsPerCustomerPerWorker: 1,
	peakWorkerRssMB: 400,
	rssMB: { main: 300, 'worker-1': 400, 'worker-2': 380, webhook: 200 },
	calls: { total: 3000, rateLimited: 0 },
	storedMB: 1.5,
	executionsPerWorker: { 'worker-1': 2, 'worker-2': 1 },
	...extra,
});

const results = {
	customers: [1000, 10000],
	jobs: {
		nightlyPause: { 1000: figures(20), 10000: figures(180) },
		fleetChange: {
			1000: figures(40, { duplicateInstallations: 0, notConverged: 0 }),
			10000: figures(700, { duplicateInstallations: 0, notConverged: 3 }),
		},
		fleetSweep: { 1000: figures(10, { runsReportedTwice: 0, runsMissed: 0 }) },
	},
	single: { nightlyPause: {} },
	rateLimited: { nightlyPause: { 1000: { seconds: 30, failedItems: 0 } } },
	faults: {
		failedAlone: true,
		othersConverged: true,
		afterWorkerKill: { notConverged: 0, duplicateInstallations: 0 },
	},
};

it('parseSizes: sorted whole numbers without repeats; refuses anything else', () => {
	expect(run(`return report.parseSizes('1000, 100,1000')`)).toEqual([100, 1000]);
	expect(() => run(`return report.parseSizes('100,abc')`)).toThrow(/--customers/);
	expect(() => run(`return report.parseSizes('0')`)).toThrow(/--customers/);
});

it('emptyResults: the shape issue 32 asks for', () => {
	expect(run(`return report.emptyResults([100, 1000], { rttMs: 150 })`)).toEqual({
		customers: [100, 1000],
		jobs: { nightlyPause: {}, fleetChange: {}, fleetSweep: {}, fleetUpgrade: {} },
		single: { nightlyPause: {} },
		rateLimited: { nightlyPause: {} },
		faults: null,
		setup: { rttMs: 150 },
	});
});

it('the upgrade: clean, never two copies active, and within 2.5× the fleet change of the same run', () => {
	const figures = (seconds: number, extra = {}) => ({ seconds, failedItems: 0, ...extra });
	const base = { customers: [10000], setup: {}, jobs: { fleetChange: { 10000: figures(200) } } };
	const within = run(
		`return report.targets(${JSON.stringify({ ...base, jobs: { ...base.jobs, fleetUpgrade: { 10000: figures(500, { bothActive: { events: 0, maxAtOnce: 0 } }) } } })})`,
	);
	expect(within['fleetUpgrade@10000 vs change']).toMatchObject({
		value: '500 s against 200 s: 2.5×',
		met: true,
	});
	expect(within['fleetUpgrade@10000']).toMatchObject({ met: true });
	const slow = run(
		`return report.targets(${JSON.stringify({ ...base, jobs: { ...base.jobs, fleetUpgrade: { 10000: figures(520, { bothActive: { events: 2, maxAtOnce: 1 } }) } } })})`,
	);
	expect(slow['fleetUpgrade@10000 vs change']).toMatchObject({ met: false });
	expect(slow['fleetUpgrade@10000']).toMatchObject({
		value: '520 s, 2 times two copies active',
		met: false,
	});
	expect(
		run(
			`return report.table(${JSON.stringify({ ...base, jobs: { ...base.jobs, fleetUpgrade: { 10000: figures(500) } } })})`,
		),
	).toMatch(/\| upgrade +\| 10000 +\| 500 /);
});

it('targets: time, cleanliness and growth at the largest size, the rate limit and the faults', () => {
	const out = run(`return report.targets(${JSON.stringify(results)})`);
	expect(out['nightlyPause@10000']).toMatchObject({ value: '180 s', met: true });
	expect(out['nightlyPause growth']).toMatchObject({ value: '9×', met: true });
	expect(out['fleetChange@10000']).toMatchObject({ value: '700 s, 3 not converged', met: false });
	expect(out['fleetChange growth']).toMatchObject({ value: '17.5×', met: false });
	expect(out['nightlyPause@10000 RSS']).toMatchObject({ value: '400 MB', met: true });
	expect(out['fleetSweep@10000']).toBeUndefined();
	expect(out.rateLimited).toMatchObject({ value: '1000: 0 failed in 30 s', met: true });
	expect(out.faults.met).toBe(true);
});

it('targets at 100,000: their own times, 10,000 still checked, growth ≤ 11×, the emulator and the 401s stated', () => {
	const big = {
		customers: [10000, 100000],
		jobs: {
			nightlyPause: {
				10000: figures(80),
				100000: figures(850, { emulatorPeakRssMB: 900, peakWorkerRssMB: 1600 }),
			},
			fleetChange: {
				10000: figures(190, { duplicateInstallations: 0, notConverged: 0 }),
				100000: figures(1700, { duplicateInstallations: 0, notConverged: 0 }),
			},
			fleetSweep: {
				10000: figures(50, { auth: { unauthorizedByTokenKind: { master: 2, endUser: 0 } } }),
				100000: figures(620),
			},
		},
		single: { nightlyPause: {} },
		rateLimited: { nightlyPause: {} },
		faults: { afterWorkerKill: { killed: 'worker-1' } },
		setup: {
			strictAuth: 'noBasicUsername',
			queueMode: { workers: 2 },
			seedSeconds: { 100000: 45 },
			emulatorRssAfterSeedMB: { 100000: 730 },
		},
	};
	const out = run(`return report.targets(${JSON.stringify(big)})`);
	expect(out['nightlyPause@100000']).toMatchObject({ met: true });
	expect(out['nightlyPause@100000'].target).toMatch(/≤ 900 s/);
	expect(out['nightlyPause@100000 RSS']).toMatchObject({ value: '1600 MB', met: false });
	expect(out['fleetChange@100000'].target).toMatch(/≤ 1800 s/);
	expect(out['fleetSweep@100000']).toMatchObject({ value: '620 s', met: false });
	expect(out['nightlyPause@10000']).toMatchObject({ value: '80 s', met: true });
	expect(out['nightlyPause@10000'].target).toMatch(/≤ 300 s/);
	expect(out['fleetChange growth']).toMatchObject({ value: '8.95×', met: true });
	expect(out['fleetSweep growth']).toMatchObject({ value: '12.4×', met: false });
	expect(out['emulator@100000'].value).toMatch(/peak 900 MB.*730 MB after a seed of 45 s/);
	expect(out.auth).toMatchObject({ met: true });
	expect(out.auth.value).toMatch(/master token 2, end-user tokens 0/);
	const over = JSON.parse(JSON.stringify(big));
	over.faults = null;
	over.jobs.fleetChange[10000].auth = { unauthorizedByTokenKind: { master: 1, endUser: 0 } };
	expect(run(`return report.targets(${JSON.stringify(over)})`).auth.met).toBe(false);
});

it('table: one markdown row per job and size', () => {
	const text: string = run(`return report.table(${JSON.stringify(results)})`);
	const lines = text.split('\n');
	expect(lines[0]).toMatch(/^\| Job +\| Customers \| Seconds \| Failed \|/);
	expect(lines[1]).toMatch(/^\| -+ \| -+ \|/);
	expect(lines).toHaveLength(2 + 2 + 2 + 1 + 1);
	expect(lines[2]).toMatch(
		/^\| nightly pause +\| 1000 +\| 20 +\| 0 +\| 3000 +\| 0 +\| +\| 1 +\| 300 \/ 400, 380 \/ 200 +\| +\| 1.5 +\| 2 \+ 1 +\|$/,
	);
	expect(lines.at(-1)).toMatch(/^\| nightly pause, rate-limited \| 1000 +\| 30 +\| 0 +\|/);
});
