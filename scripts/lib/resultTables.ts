/**
 * The tables of docs/performance/results.md (scripts/bench-results.ts): one renderer per shape of
 * bench JSON (bench, bench:n8n, bench:watch, bench:fleet and files that gather fleet runs).
 */
import { weekHeader, WEEKS_SHOWN_ONE_BY_ONE, weekRows } from './weekTables';

export type Json = Record<string, unknown>;

/** The value at a path of keys, or undefined. */
export const at = (data: unknown, ...keys: string[]): unknown =>
	keys.reduce<unknown>(
		(value, key) =>
			value !== null && typeof value === 'object' ? (value as Json)[key] : undefined,
		data,
	);

const isObject = (value: unknown): value is Json =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/** A figure as the page shows it: numbers grouped (1,234.5), nothing for a missing one. */
export function fig(value: unknown): string {
	if (typeof value === 'number') return value.toLocaleString('en-US');
	if (value === undefined || value === null) return '';
	if (isObject(value))
		return Object.entries(value)
			.map(([key, inner]) => `${key}: ${fig(inner)}`)
			.join(', ');
	return String(value).replace(/\|/g, '\\|');
}

const row = (cells: unknown[]) => `| ${cells.map(fig).join(' | ')} |`;

function table(header: string[], rows: unknown[][]): string[] {
	if (rows.length === 0) return [];
	return [row(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(row), ''];
}

const JOBS: Record<string, string> = {
	nightlyPause: 'nightly pause',
	fleetChange: 'fleet change',
	fleetSweep: 'fleet sweep',
	fleetUpgrade: 'fleet upgrade',
};
const GROUPS: [string, string][] = [
	['jobs', ''],
	['single', ', one execution'],
	['rateLimited', ', rate-limited'],
];

/** What a fleet job ended with besides its time: convergence, the sweep's counts, the store. */
function outcomeOf(job: Json): string {
	const parts: string[] = [];
	const add = (key: string, text: (value: unknown) => string) => {
		if (job[key] !== undefined) parts.push(text(job[key]));
	};
	add('leftActive', (n) => `${fig(n)} left active`);
	add('notConverged', (n) => `${fig(n)} not converged`);
	add('duplicateInstallations', (n) => `${fig(n)} duplicates`);
	add('sweepsSeconds', (s) => `sweeps ${(s as number[]).map(fig).join(' / ')} s`);
	add('oldNotPaused', (n) => `${fig(n)} old copies not paused`);
	add('bothActive', (b) => `${fig(at(b, 'events'))} moments with two active copies`);
	add('runsReportedTwice', (n) => `${fig(n)} twice`);
	add('runsMissed', (n) => `${fig(n)} missed`);
	add(
		'automationsRecovered',
		(n) => `${fig(job.incidentsResolved)} of ${fig(n)} recoveries resolved`,
	);
	add(
		'storeTrace',
		(t) => `${fig(at(t, 'storeCalls'))} store calls, p50 ${fig(at(t, 'callMs', 'p50'))} ms`,
	);
	return parts.join('; ');
}

/** One row per job, group and fleet size of a bench:fleet result. */
function fleetRows(result: unknown, label: string): unknown[][] {
	return GROUPS.flatMap(([group, suffix]) =>
		Object.entries((at(result, group) ?? {}) as Json).flatMap(([job, sizes]) =>
			Object.entries(sizes as Json).map(([size, figures]) => {
				const f = figures as Json;
				return [
					`${JOBS[job] ?? job}${suffix}${label}`,
					Number(size),
					f.seconds,
					f.failedItems,
					at(f, 'calls', 'total'),
					at(f, 'calls', 'rateLimited'),
					f.maxTokenCallsPerCustomerPerWorker,
					f.peakWorkerRssMB,
					f.emulatorPeakRssMB,
					outcomeOf(f),
				];
			}),
		),
	);
}

const FLEET_HEADER = [
	'job',
	'customers',
	'seconds',
	'failed',
	'calls',
	'429s',
	'token calls / customer / worker',
	'worker RSS MB',
	'emulator RSS MB',
	'outcome',
];

function faultsOf(faults: unknown): string[] {
	if (!isObject(faults)) return [];
	const kill = (faults.afterWorkerKill ?? {}) as Json;
	return [
		`Faults at ${fig(faults.customers)} customers (${fig(faults.badCustomers)}): ` +
			`${fig(faults.failedItems)} items failed${faults.failedAlone ? ', alone' : ''}, ` +
			`${fig(faults.othersNotConverged)} others not converged, in ${fig(faults.seconds)} s. ` +
			`${fig(kill.killed)} killed after ${fig(kill.killedAfterPuts)} PUTs ` +
			`(${fig(kill.notConvergedBeforeRerun)} not converged), then a rerun in ` +
			`${fig(kill.rerunSeconds)} s: ${fig(kill.notConverged)} not converged, ` +
			`${fig(kill.duplicateInstallations)} duplicates.`,
		'',
	];
}

function setupOf(setup: unknown): string {
	if (!isObject(setup)) return '';
	const parts = [
		['batches of', setup.batch],
		['sweep batches of', setup.sweepBatch],
		['Items in Flight', setup.itemsInFlight],
		["workers' NODE_OPTIONS", setup.workerNodeOptions],
		['strict auth', setup.strictAuth],
		['bench seconds', setup.benchSeconds],
	].filter(([, value]) => value !== undefined);
	if (parts.length === 0) return '';
	return ` Set-up: ${parts.map(([name, value]) => `${name} ${fig(value)}`).join('; ')}.`;
}

function weeksOf(data: Json): string[] {
	return Object.values((data.year ?? {}) as Json).flatMap((year) => {
		const weeks = Object.values((at(year, 'byWeek') ?? {}) as Json) as Json[];
		const lines = (at(year, 'targets', 'lines') ?? []) as string[];
		const grouped = weeks.length > WEEKS_SHOWN_ONE_BY_ONE;
		return [
			`${fig(at(year, 'customers'))} customers, ${fig(at(year, 'runsPerDay'))} runs a day per automation, ${fig(at(year, 'weeks'))} simulated weeks after a first sweep of ${fig(at(year, 'first', 'seconds'))} s${grouped ? ' (week 1, then the others in groups: a figure as its lowest–highest, a count summed; each week is in the JSON)' : ''}:`,
			'',
			...table(weekHeader(at(year, 'catchUp') !== false), weekRows(weeks)),
			...(lines.length > 0 ? [`**Targets:** ${lines.join('; ')}.`, ''] : []),
		];
	});
}

function fleetSection(data: Json): string[] {
	const runs = (data.runs ?? []) as Json[];
	const rows = runs.length
		? runs.flatMap((run) =>
				fleetRows(run.result ?? run.results, ` (${fig(run.run ?? run.command)})`),
			)
		: fleetRows(data, '');
	return [...table(FLEET_HEADER, rows), ...faultsOf(data.faults), ...weeksOf(data)];
}

function perItemSection(data: Json): string[] {
	const rows = Object.entries(data.perItemMs as Json).flatMap(([rtt, series]) =>
		Object.entries(series as Json).map(([name, ms]) => [
			`${rtt} ms`,
			name,
			...['1', '8', '32', 'default'].map((n) => at(ms, n)),
		]),
	);
	return [
		'Milliseconds per item (200 Installation → Get items), by calls in flight:',
		'',
		...table(['round trip', 'client', '1', '8', '32', 'Auto'], rows),
		`CPU ms per call: ${fig(data.cpuMsPerCall)}. Bulk update: ${fig(data.bulkUpdate)}. Heap kept: ${fig(data.heapRetainedMB)}.`,
		'',
	];
}

function n8nSection(data: Json): string[] {
	const rows = ['', 'rateLimited'].flatMap((limit) =>
		['node', 'nodeAt64', 'httpRequest'].map((who) => {
			const r = (limit ? at(data, limit, who) : data[who]) as Json;
			return [
				`${who}${limit ? ', rate-limited' : ''}`,
				r.seconds,
				r.failed,
				r.requests,
				r.rateLimited,
			];
		}),
	);
	return table(['run', 'seconds', 'failed', 'requests', '429s'], rows);
}

function watchSection(data: Json): string[] {
	const rows = (data.sweeps as Json[]).map((s) => [
		s.sweep,
		s.seconds,
		s.returned,
		s.customerErrors,
		s.requests,
	]);
	return [
		`${fig(data.customers)} customers × ${fig(data.automationsPerCustomer)} automations: ${fig(data.injected)} failed runs injected, ${fig(data.returned)} returned, ${fig(data.returnedTwice)} twice, ${fig(data.missing)} missing.`,
		'',
		...table(['sweep', 'seconds', 'returned', 'customer errors', 'requests'], rows),
	];
}

/** The targets as one line: each one's name, what was wanted, what was measured and whether it was met. */
function targetsOf(targets: unknown): string[] {
	if (!isObject(targets)) return [];
	const each = Object.entries(targets).map(([name, t]) => {
		const wanted = fig(at(t, 'target'));
		const met = at(t, 'met');
		const verdict = met === true ? ', met' : met === false ? ', **not met**' : '';
		return `${name}${wanted ? ` (${wanted})` : ''}: ${fig(at(t, 'value'))}${verdict}`;
	});
	return each.length > 0 ? [`**Targets:** ${each.join('; ')}.`, ''] : [];
}

/** A file of plain rows: one table, its header the first row's keys. */
function rowsSection(rows: Json[]): string[] {
	const header = Object.keys(rows[0] ?? {});
	return table(
		header,
		rows.map((r) => header.map((key) => r[key])),
	);
}

function bodyOf(data: Json): string[] {
	if (Array.isArray(data.rows)) return rowsSection(data.rows as Json[]);
	if (data.perItemMs) return perItemSection(data);
	if (data.sweeps) return watchSection(data);
	if (data.node && data.httpRequest) return n8nSection(data);
	return fleetSection(data);
}

/** One file's section: its heading (the file name), date, note, figures and targets. */
export function sectionOf(name: string, data: Json, date: string): string[] {
	const note = data.note ?? data.about;
	return [
		`## ${name}`,
		`[${name}](${name}), ${date || 'undated'}.${note ? ` ${fig(note)}` : ''}${setupOf(data.setup)}`,
		'',
		...failureOf(data.error),
		...bodyOf(data),
		...targetsOf(data.targets),
	];
}

/** A run that stopped on an error says so, with the error's first line. */
function failureOf(error: unknown): string[] {
	if (error === undefined || error === null) return [];
	return [`**The run failed:** ${fig(String(error).split('\n')[0].slice(0, 200))}`, ''];
}
