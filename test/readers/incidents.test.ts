/** Group Into Incidents, pure (nodes/shared/readers/incidents.ts). */
import type { IDataObject } from 'n8n-workflow';

import { groupIntoIncidents, MAX_INCIDENTS } from '../../nodes/shared/readers/incidents';

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
const base = {
	firstSweep: false,
	remindAfterMs: 0,
	now: Date.UTC(2026, 0, 1, 12),
	customer: { endUserId: 'c' },
};

describe('groupIntoIncidents', () => {
	it('opens once, counts quietly, resolves with duration and count', () => {
		const first = groupIntoIncidents({
			...base,
			incidents: undefined,
			runs: [run(1, 7, 'succeeded', 0), run(2, 7, 'failed', 1), run(3, 7, 'failed', 2)],
		});
		expect(first.items.map((i) => i.event)).toEqual(['incidentOpened']);
		expect(first.items[0]).toMatchObject({
			endUserId: 'c',
			bundleId: 7,
			failedRuns: 1,
			failedStep: { error: 'Boom' },
		});
		expect(first.incidents['7'].failedRuns).toBe(2);
		const second = groupIntoIncidents({
			...base,
			incidents: first.incidents,
			runs: [run(4, 7, 'succeeded', 11)],
		});
		expect(second.items).toEqual([
			expect.objectContaining({
				event: 'incidentResolved',
				failedRuns: 2,
				durationSeconds: 600,
				firstFailedRunId: 2,
			}),
		]);
		expect(second.incidents).toEqual({});
		expect(first.incidents['7'].failedRuns).toBe(2); // the input is not changed
	});

	it('a run in neither state (unknown outcome) changes nothing', () => {
		const out = groupIntoIncidents({
			...base,
			incidents: undefined,
			runs: [run(1, 7, 'unknown', 0)],
		});
		expect(out).toEqual({ items: [], incidents: {} });
	});

	it('keeps at most MAX_INCIDENTS open incidents, the newest', () => {
		const runs = Array.from({ length: MAX_INCIDENTS + 3 }, (_, i) =>
			run(i + 1, i + 1, 'failed', i % 60),
		);
		const out = groupIntoIncidents({ ...base, incidents: undefined, runs });
		expect(Object.keys(out.incidents)).toHaveLength(MAX_INCIDENTS);
	});
});
