/**
 * docs/performance/results.md is the bench JSON, rendered: the figures live in the JSON only, and
 * the page cannot drift from them.
 */
import { benchFiles, dateOf, PAGE, renderPage } from '../../scripts/bench-results';
import { githubAnchor } from '../../scripts/readme-operations';
import { anchorsOf, read } from './markdown';

describe('the page of benchmark results', () => {
	test('is what the JSON renders (run npm run docs:results)', () => {
		expect(read(PAGE)).toBe(renderPage());
	});

	test('has a section for every JSON file of docs/performance', () => {
		const anchors = anchorsOf(read(PAGE));
		const files = benchFiles().map((file) => file.name);
		expect(files.length).toBeGreaterThan(5);
		expect(files.filter((name) => !anchors.has(githubAnchor(name)))).toEqual([]);
	});

	test("renders a fleet job's figures as a row, newest file first", () => {
		const job = {
			seconds: 78.4,
			failedItems: 0,
			calls: { total: 30000, rateLimited: 0 },
			maxTokenCallsPerCustomerPerWorker: 1,
			peakWorkerRssMB: 827,
			leftActive: 0,
		};
		const page = renderPage([
			{ name: 'old.json', data: { setup: { date: '2026-01-01T00:00:00Z' }, jobs: {} } },
			{
				name: 'new.json',
				data: { note: 'A note.', setup: { date: '2026-02-01T00:00:00Z' }, jobs: { nightlyPause: { 10000: job } } },
			},
		]);
		expect(page).toContain('| nightly pause | 10,000 | 78.4 | 0 | 30,000 | 0 | 1 | 827 |  | 0 left active |');
		expect(page).toContain('## new.json\n[new.json](new.json), 2026-02-01. A note.\n');
		expect(page.indexOf('## new.json')).toBeLessThan(page.indexOf('## old.json'));
	});

	test('shows a long run of weeks as week 1 and four groups: lowest–highest, counts summed', () => {
		const week = (n: number) => ({
			week: n,
			sweepSeconds: [5 + n, 1],
			memory: { storeRecords: n === 1 ? 90 : 100 },
			storeCallMs: { p50: n, max: 10 * n },
			runsTwice: 0,
			runsMissed: n === 3 ? 1 : 0,
			incidentsOpened: 2,
			incidentsResolved: 1,
			truthOpened: 2,
			truthResolved: 1,
			itemsFailed: 0,
		});
		const year = { customers: 5, runsPerDay: 50, weeks: 10, byWeek: [...Array(10).keys()].map((i) => week(i + 1)) };
		const page = renderPage([{ name: 'year.json', data: { year: { 5: year } } }]);
		expect(page).toContain('| 1 | 6 / 1 | 90 | 1 / 10 | 0 / 0 | 2 / 1 (2 / 1) | 0 |');
		expect(page).toContain('| 2–4 | 7–9 / 1 | 100 | 2–4 / 40 | 0 / 1 | 6 / 3 (6 / 3) | 0 |');
		expect(page).toContain('| 8–10 | 13–15 / 1 | 100 | 8–10 / 100 | 0 / 0 | 6 / 3 (6 / 3) | 0 |');
		expect(page).not.toContain('| 5 |');
	});

	test("a run without catch-ups: its header says steady sweeps, with the first sweep and the workers' peak", () => {
		const sweep = (peakWorkerRssMB: number) => ({ kind: 'steady', peakWorkerRssMB });
		const week = {
			week: 1,
			sweepSeconds: [593.2, 540.5],
			memory: { storeRecords: 92252 },
			storeCallMs: { p50: 360, max: 38618 },
			...{ runsTwice: 0, runsMissed: 0, incidentsOpened: 2, incidentsResolved: 1, truthOpened: 2, truthResolved: 1 },
			itemsFailed: 0,
			sweeps: [sweep(1094), sweep(1161)],
		};
		const year = { customers: 100000, runsPerDay: 50, weeks: 1, catchUp: false, first: { seconds: 825.8 }, byWeek: [week] };
		const page = renderPage([{ name: 'y.json', data: { year: { 100000: year } } }]);
		expect(page).toContain('1 simulated weeks after a first sweep of 825.8 s:');
		expect(page).toContain("| weeks | steady sweeps (s) | store records | store call p50 / max (ms) | twice / missed | incidents opened / resolved (truth) | items failed | workers' peak (MB) |");
		expect(page).toContain('| 1 | 593.2 / 540.5 | 92,252 | 360 / 38,618 | 0 / 0 | 2 / 1 (2 / 1) | 0 | 1,161 |');
	});

	test('gives the targets in one line, saying which were met', () => {
		const targets = { fast: { target: '≤ 2', value: 1.5, met: true }, small: { target: '≤ 8', value: 9, met: false } };
		const page = renderPage([{ name: 't.json', data: { node: {}, httpRequest: {}, rateLimited: { node: {}, nodeAt64: {}, httpRequest: {} }, nodeAt64: {}, targets } }]);
		expect(page).toContain('**Targets:** fast (≤ 2): 1.5, met; small (≤ 8): 9, **not met**.\n');
	});

	test('says when a run stopped on an error, with its first line', () => {
		const page = renderPage([{ name: 'failed.json', data: { error: 'Error: 404 webhook\n    at x' } }]);
		expect(page).toContain('**The run failed:** Error: 404 webhook\n');
		expect(page).not.toContain('at x');
	});

	test('dates a file that gathers runs by its newest run', () => {
		expect(dateOf({ runs: [{ result: { setup: { date: '2026-01-02' } } }, { setup: { date: '2026-01-03' } }] })).toBe(
			'2026-01-03',
		);
	});
});
