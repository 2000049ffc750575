/**
 * bench:fleet --weeks: how a sweep's incidents are set against the emulator's truth
 * (scripts/lib/fleetYear.mjs, an ES module: run in a child Node).
 */
import { execFileSync } from 'child_process';
import path from 'path';

const lib = path.join(__dirname, '..', '..', 'scripts', 'lib', 'fleetYear.mjs');

/** Calls the module's functions in a child process; returns what `script` returns, as JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the child
function run(script: string): any {
	const code = `import * as year from ${JSON.stringify(lib)};\nconst out = (() => { ${script} })();\nprocess.stdout.write(JSON.stringify(out));`;
	return JSON.parse(
		execFileSync(process.execPath, ['--input-type=module', '-e', code], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		}),
	);
}

const HOUR = 3_600_000;

it('counts a run said twice, and truth never said within the lateness as missed, once', () => {
	const out = run(`
		const ledger = year.newLedger();
		const truth = { opened: [[7101, 11, 0], [7101, 12, 0], [7102, 13, 2 * ${HOUR}]], resolved: [[7101, 21, 11, 0]] };
		const first = year.settle(ledger, ['opened 11', 'resolved 21'], truth, 10 * 60000);
		const second = year.settle(ledger, ['opened 11'], undefined, 90 * 60000);
		const third = year.settle(ledger, ['opened 13'], undefined, 4 * ${HOUR});
		const fourth = year.settle(ledger, [], undefined, 10 * ${HOUR});
		return { first, second, third, fourth, totals: [ledger.twice, ledger.missed, ledger.due.size] };
	`);
	// Within the 60 minutes' lateness nothing is missed yet; past it, run 12's incident is.
	expect(out.first).toEqual({ twice: 0, missed: 0, again: [] });
	expect(out.second).toEqual({ twice: 1, missed: 1, again: ['opened 11'] });
	// Run 13's incident, known at 2 h, said at 4 h: late, but said; never counted missed after.
	expect(out.third).toEqual({ twice: 0, missed: 0, again: [] });
	expect(out.fourth).toEqual({ twice: 0, missed: 0, again: [] });
	expect(out.totals).toEqual([1, 1, 0]);
});

it("reads a batch's incidents, and its failed items with their reasons (numbers as N)", () => {
	const out = run(`
		const collected = { events: {}, reasons: {}, keys: [] };
		const item = (json) => ({ json });
		year.collect({ 'New failures, as incidents': [{ data: { main: [[
			item({ event: 'incidentOpened', run: { id: 11 } }),
			item({ event: 'incidentResolved', run: { id: 21 }, firstFailedRunId: 11 }),
			item({ event: 'incidentReminder', lastFailedRunId: 12 }),
		], [
			item({ error: 'Options → Max Remembered Runs in Total (100000) is too small: set it to at least 330,000' }),
			item({ error: 'Options → Max Remembered Runs in Total (100000) is too small: set it to at least 330,123' }),
		]] } }] }, collected);
		year.collect({
			'One item per customer': [{ data: { main: [[item({}), item({}), item({})]] } }],
			'New failures, as incidents': [{ error: { message: 'Timed out after 30 s' } }],
		}, collected);
		return collected;
	`);
	expect(out.keys).toEqual(['opened 11', 'resolved 21']);
	expect(out.events).toEqual({ incidentOpened: 1, incidentResolved: 1, incidentReminder: 1 });
	expect(out.reasons).toEqual({
		'Options → Max Remembered Runs in Total (N) is too small: set it to at least N': 2,
		'Timed out after N s': 3,
	});
});

it("checks issue 54's targets: today's node at 200 customers fails them, a flat exact year meets them", () => {
	const figures = path.join(
		__dirname,
		'..',
		'..',
		'docs',
		'performance',
		'bench-fleet-weeks-200x3.json',
	);
	const out = run(
		`
		const week = (n, bytes, seconds) => ({ week: n, memory: { storeBytes: bytes, staticDataBytes: 0 },
			steadySeconds: seconds, runsTwice: 0, runsMissed: 0, incidentsResolved: 9, truthResolved: 9, failReasons: {} });
		const flat = year.yearTargets([week(1, 900, 10), week(2, 1000, 10), week(3, 1100, 12)]);
		const grown = year.yearTargets([week(1, 900, 10), week(2, 1000, 10), week(3, 1101, 12.1)]);
		const today = year.yearTargets(JSON.parse(process.env.FIGURES).year['200'].byWeek);
		const late = (n, resolved) => ({ ...week(n, 1000, 10), incidentsResolved: resolved });
		const shifted = year.yearTargets([late(1, 8), late(2, 10)]);
		const short = year.yearTargets([late(1, 8), late(2, 9)]);
		const due = year.yearTargets([late(1, 8), late(2, 9)], 1);
		return { flat, grown, today, shifted, short, due };
	`.replace(
			'process.env.FIGURES',
			`process.getBuiltinModule('node:fs').readFileSync(${JSON.stringify(figures)}, 'utf8')`,
		),
	);
	expect(out.flat).toMatchObject({
		exactlyOnce: true,
		everyRecoveryResolved: true,
		sizingFailures: 0,
	});
	expect(out.flat.lines.filter((line: string) => line.includes('NOT met'))).toEqual([]);
	expect(out.grown.lines.filter((line: string) => line.includes('NOT met'))).toHaveLength(2);
	// A recovery returned the week after its truth (the lateness), or still due at the end: met.
	expect([out.shifted, out.short, out.due].map((t) => t.everyRecoveryResolved)).toEqual([
		true,
		false,
		true,
	]);
	expect(out.today).toMatchObject({
		exactlyOnce: false,
		everyRecoveryResolved: false,
		sizingFailures: 1600,
	});
});
