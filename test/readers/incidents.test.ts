/** Incidents read from the run history, pure (nodes/shared/readers/incidents.ts). */
import type { IDataObject } from 'n8n-workflow';

import {
	dueReminders,
	incidentContextRead,
	incidentEvents,
} from '../../nodes/shared/readers/incidents';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString();
const run = (id: number, bundleId: number, outcome: string, minute: number): IDataObject => ({
	id,
	bundleId,
	outcome,
	dateCreated: at(minute),
	installationId: 5001,
	bundleTitle: `Automation ${bundleId}`,
	failedStep: outcome === 'failed' ? { error: 'Boom' } : null,
});
const customer = { endUserId: 'c' };
const sweep = (history: IDataObject[], fresh: number[], firstSweep = false) =>
	incidentEvents({
		history,
		fresh: new Set(fresh.map(String)),
		firstSweep,
		endUserFields: customer,
	});
const summary = (items: IDataObject[]) =>
	items.map((item) => `${String(item.event)} ${String(item.bundleId)} ${String(item.failedRuns)}`);

describe('incidentEvents', () => {
	it('opens at the first failure after a success, stays quiet, resolves with duration and count', () => {
		const history = [run(1, 7, 'succeeded', 0), run(2, 7, 'failed', 1)];
		const opened = sweep(history, [2]);
		expect(summary(opened)).toEqual(['incidentOpened 7 1']);
		expect(opened[0]).toMatchObject({
			endUserId: 'c',
			installationId: 5001,
			bundleTitle: 'Automation 7',
			openedAt: at(1),
			failedStep: { error: 'Boom' },
			run: expect.objectContaining({ id: 2 }),
		});
		history.push(run(3, 7, 'failed', 2));
		expect(sweep(history, [3])).toEqual([]);
		history.push(run(4, 7, 'succeeded', 11));
		const resolved = sweep(history, [4]);
		expect(resolved).toEqual([
			expect.objectContaining({
				event: 'incidentResolved',
				failedRuns: 2,
				durationSeconds: 600,
				firstFailedRunId: 2,
				resolvedAt: at(11),
				run: expect.objectContaining({ id: 4 }),
			}),
		]);
		expect(sweep(history, [])).toEqual([]); // nothing new, nothing said
	});

	it('a failure and a recovery in one sweep give both, in order; the first run ever may open one', () => {
		const history = [run(1, 7, 'failed', 0), run(2, 7, 'failed', 1), run(3, 7, 'succeeded', 2)];
		expect(summary(sweep(history, [1, 2, 3]))).toEqual([
			'incidentOpened 7 2',
			'incidentResolved 7 2',
		]);
	});

	it('two automations are read apart', () => {
		const history = [
			run(1, 7, 'succeeded', 0),
			run(2, 8, 'succeeded', 0),
			run(3, 7, 'failed', 1),
			run(4, 8, 'failed', 2),
			run(5, 7, 'succeeded', 3),
		];
		expect(summary(sweep(history, [3, 4, 5]))).toEqual([
			'incidentOpened 7 1',
			'incidentOpened 8 1',
			'incidentResolved 7 1',
		]);
	});

	it("a first sweep reports what is failing now (with the streak's count), not incidents already over", () => {
		const history = [
			run(1, 7, 'succeeded', 0),
			run(2, 7, 'failed', 1),
			run(3, 7, 'succeeded', 2),
			run(4, 8, 'succeeded', 0),
			run(5, 8, 'failed', 1),
			run(6, 8, 'failed', 2),
		];
		const first = sweep(history, [1, 2, 3, 4, 5, 6], true);
		expect(summary(first)).toEqual(['incidentOpened 8 2']);
		expect(first[0]).toMatchObject({ openedAt: at(1), run: expect.objectContaining({ id: 5 }) });
	});

	it('a run that ends after newer runs were reported counts, but reports nothing itself', () => {
		// Run 2 was in progress when 3 (a success) was reported; it ends failed now.
		const history = [run(1, 7, 'succeeded', 0), run(2, 7, 'failed', 1), run(3, 7, 'succeeded', 2)];
		expect(sweep(history, [2])).toEqual([]);
		history.push(run(4, 7, 'failed', 3), run(5, 7, 'succeeded', 4));
		expect(summary(sweep(history, [4, 5]))).toEqual(['incidentOpened 7 1', 'incidentResolved 7 1']);
	});

	it('runs in progress or of unknown outcome change nothing; duplicates count once', () => {
		const history = [
			run(1, 7, 'succeeded', 0),
			run(2, 7, 'unknown', 1),
			run(3, 7, 'inProgress', 2),
			run(1, 7, 'succeeded', 0),
		];
		expect(sweep(history, [2, 3])).toEqual([]);
	});
});

describe('dueReminders', () => {
	const HOUR = 3600000;
	const start = Date.parse(at(0));
	const history = [run(1, 7, 'succeeded', 0), run(2, 7, 'failed', 1), run(3, 7, 'failed', 2)];

	it('one per whole Remind After since the first failed run, with the count so far', () => {
		expect(dueReminders(history, HOUR, start + 30 * 60000, customer)).toEqual([]);
		const [first] = dueReminders(history, HOUR, start + HOUR + 2 * 60000, customer);
		expect(first.item).toMatchObject({
			event: 'incidentReminder',
			endUserId: 'c',
			bundleId: 7,
			failedRuns: 2,
			openForSeconds: 3660,
			lastFailedRunId: 3,
		});
		// The same key all period long; the next period, the next key.
		const [again] = dueReminders(history, HOUR, start + HOUR + 50 * 60000, customer);
		expect(again.key).toBe(first.key);
		const [next] = dueReminders(history, HOUR, start + 2 * HOUR + 2 * 60000, customer);
		expect(next.key).not.toBe(first.key);
		expect(dueReminders(history, 0, start + 5 * HOUR, customer)).toEqual([]);
	});

	it('none once the automation succeeded again; a new incident has keys of its own', () => {
		const later = start + 3 * HOUR;
		const [old] = dueReminders(history, HOUR, later, customer);
		const recovered = [...history, run(4, 7, 'succeeded', 3)];
		expect(dueReminders(recovered, HOUR, later, customer)).toEqual([]);
		const again = [...recovered, run(5, 7, 'failed', 4)];
		const [fresh] = dueReminders(again, HOUR, later, customer);
		expect(fresh.key).not.toBe(old.key);
	});
});

describe('incidentContextRead', () => {
	const point = (item: IDataObject) => item;
	const newOnes =
		(...ids: number[]) =>
		(item: IDataObject) =>
			ids.includes(Number(item.id));

	it('needs the run before the oldest new one of each automation', () => {
		const read = [run(3, 7, 'failed', 2), run(2, 7, 'succeeded', 1)];
		expect(incidentContextRead(read, point, newOnes(3))).toBe(true);
		expect(incidentContextRead(read.slice(0, 1), point, newOnes(3))).toBe(false);
		expect(incidentContextRead(read, point, newOnes(2, 3))).toBe(false);
		expect(incidentContextRead(read, point, newOnes())).toBe(true);
	});

	it('a new success after failures needs the success before them (how long, how many)', () => {
		const read = [run(4, 7, 'succeeded', 3), run(3, 7, 'failed', 2), run(2, 7, 'failed', 1)];
		expect(incidentContextRead(read, point, newOnes(4))).toBe(false);
		expect(incidentContextRead([...read, run(1, 7, 'succeeded', 0)], point, newOnes(4))).toBe(true);
	});
});
