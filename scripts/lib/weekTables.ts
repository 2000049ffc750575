/**
 * The weeks of a bench:fleet --weeks run, as rows of docs/performance/results.md
 * (scripts/lib/resultTables.ts). Up to 8 weeks show one row each; a longer run shows week 1 (the
 * catch-up) alone and the rest in four groups: a figure as its lowest–highest over the group's
 * weeks, a count summed. Every week stays in the JSON.
 */
type Week = Record<string, unknown>;

/** Weeks up to this many get a row each. */
export const WEEKS_SHOWN_ONE_BY_ONE = 8;
const GROUPS = 4;

const num = (value: number) => value.toLocaleString('en-US');
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** "4,614", or "6.5–7" when the weeks differ. */
function span(values: number[]): string {
	const low = Math.min(...values);
	const high = Math.max(...values);
	return low === high ? num(low) : `${num(low)}–${num(high)}`;
}

const field = (week: Week, ...keys: string[]): number =>
	keys.reduce<unknown>(
		(value, key) =>
			value !== null && typeof value === 'object' ? (value as Week)[key] : undefined,
		week,
	) as number;

/**
 * One row: weeks, sweep seconds, store records, store call ms, twice / missed, incidents, failed,
 * the workers' peak memory.
 */
function rowOf(weeks: Week[]): string[] {
	const all = (...keys: string[]) => weeks.map((week) => field(week, ...keys));
	const total = (key: string) => num(sum(all(key)));
	const first = field(weeks[0], 'week');
	const last = field(weeks[weeks.length - 1], 'week');
	const sweeps = (weeks[0].sweepSeconds as number[]).map((_, index) =>
		span(weeks.map((week) => (week.sweepSeconds as number[])[index])),
	);
	return [
		first === last ? num(first) : `${num(first)}–${num(last)}`,
		sweeps.join(' / '),
		span(all('memory', 'storeRecords')),
		`${span(all('storeCallMs', 'p50'))} / ${num(Math.max(...all('storeCallMs', 'max')))}`,
		`${total('runsTwice')} / ${total('runsMissed')}`,
		`${total('incidentsOpened')} / ${total('incidentsResolved')} (${total('truthOpened')} / ${total('truthResolved')})`,
		total('itemsFailed'),
		peakOf(weeks),
	];
}

/** The workers' peak memory over the weeks' sweeps (MB), or – when the JSON has none. */
function peakOf(weeks: Week[]): string {
	const sweeps = weeks.flatMap((week) => (week.sweeps ?? []) as Week[]);
	const peaks = sweeps.map((sweep) => field(sweep, 'peakWorkerRssMB')).filter(Number.isFinite);
	return peaks.length > 0 ? num(Math.max(...peaks)) : '–';
}

/** The weeks as rows: each alone for a short run, else week 1 and four groups. */
export function weekRows(weeks: Week[]): string[][] {
	if (weeks.length <= WEEKS_SHOWN_ONE_BY_ONE) return weeks.map((week) => rowOf([week]));
	const rest = weeks.slice(1);
	const size = Math.ceil(rest.length / GROUPS);
	const groups = [weeks.slice(0, 1)];
	for (let at = 0; at < rest.length; at += size) groups.push(rest.slice(at, at + size));
	return groups.map(rowOf);
}

/** The header of weekRows' table: each week a catch-up then steady sweeps, or steady sweeps only. */
export const weekHeader = (catchUp: boolean) => [
	'weeks',
	catchUp ? 'catch-up / steady sweeps (s)' : 'steady sweeps (s)',
	'store records',
	'store call p50 / max (ms)',
	'twice / missed',
	'incidents opened / resolved (truth)',
	'items failed',
	"workers' peak (MB)",
];
