/** The trigger's pure change detection: which events, in which order, with which fields. */
import type { IDataObject } from 'n8n-workflow';

import {
	compareIds,
	detectEvents,
	EVENTS,
	sampleItem,
	seenOf,
	type InstallationEvent,
	type Snapshot,
	type Watch,
} from '../../nodes/AlbatoSolutionsTrigger/installationEvents';

const all: Watch = { events: new Set(EVENTS) };
const only = (...events: InstallationEvent[]): Watch => ({ events: new Set(events) });

function run(previous: Snapshot, list: IDataObject[], watch: Watch = all) {
	const current = new Map(list.map((installation) => [String(installation.id), installation]));
	const next: Snapshot = {};
	for (const [id, installation] of current) next[id] = seenOf(installation, previous[id]);
	return detectEvents(previous, current, next, watch);
}

const seen = (
	status: number | null,
	solutionId: number | null = 101,
	title = 'T',
): { status: number | null; title: string; solutionId: number | null } => ({
	status,
	title,
	solutionId,
});

describe('detectEvents', () => {
	it('reports nothing when nothing changed', () => {
		expect(run({ 5001: seen(1) }, [{ id: 5001, status: 1, solutionId: 101, title: 'T' }])).toEqual(
			[],
		);
	});

	it('reports a new paused installation as created only, a new active one as created then started', () => {
		const events = run({}, [
			{ id: 6002, status: 1, appId: 102, title: 'B' },
			{ id: 6001, status: 0, solutionId: 101, title: 'A' },
		]);
		expect(events.map((e) => [e.installationId, e.event])).toEqual([
			[6001, 'installationCreated'],
			[6002, 'installationCreated'],
			[6002, 'installationStarted'],
		]);
		expect(events[0]).toEqual({
			event: 'installationCreated',
			installationId: 6001,
			solutionId: 101,
			title: 'A',
			status: 0,
			previousStatus: null,
			installation: { id: 6001, status: 0, solutionId: 101, title: 'A' },
		});
		expect(events[1].solutionId).toBe(102);
	});

	it('reports start, pause and removal with the previous status', () => {
		const events = run({ 5001: seen(1), 5002: seen(0), 5003: seen(0, 101, 'Gone') }, [
			{ id: 5001, status: 0, solutionId: 101, title: 'T' },
			{ id: 5002, status: 1, solutionId: 101, title: 'T' },
		]);
		expect(events.map((e) => [e.installationId, e.event, e.previousStatus, e.status])).toEqual([
			[5001, 'installationPaused', 1, 0],
			[5002, 'installationStarted', 0, 1],
			[5003, 'installationRemoved', 0, null],
		]);
		expect(events[2].installation).toEqual({ id: 5003, title: 'Gone', status: 0, solutionId: 101 });
	});

	it('reports only the chosen events', () => {
		const events = run(
			{ 5001: seen(1), 5002: seen(0) },
			[
				{ id: 5001, status: 0 },
				{ id: 6001, status: 1 },
			],
			only('installationStarted'),
		);
		expect(events.map((e) => [e.installationId, e.event])).toEqual([[6001, 'installationStarted']]);
	});

	it('reports no start or pause from an unknown status', () => {
		expect(run({ 5001: seen(null) }, [{ id: 5001, status: 1 }])).toEqual([]);
		expect(run({ 5001: seen(1) }, [{ id: 5001, title: 'no status' }])).toEqual([]);
	});

	it('watches one solution, by solutionId or appId, also for removals (from the snapshot)', () => {
		const watch: Watch = { events: new Set(EVENTS), solutionId: '102' };
		const events = run(
			{ 5001: seen(1, 101), 5002: seen(0, 102), 5003: seen(0, 101) },
			[
				{ id: 5001, status: 0, solutionId: 101 },
				{ id: 5002, status: 1, appId: '102' },
				{ id: 6001, status: 0, solutionId: 101 },
				{ id: 6002, status: 0, appId: 102 },
			],
			watch,
		);
		expect(events.map((e) => [e.installationId, e.event])).toEqual([
			[5002, 'installationStarted'],
			[6002, 'installationCreated'],
		]);
	});

	it('keeps the solution and title learned earlier when the list leaves them out', () => {
		expect(seenOf({ id: 5001 }, seen(1, 101, 'Kept'))).toEqual({
			status: null,
			title: 'Kept',
			solutionId: 101,
		});
		expect(seenOf({ id: 5001, status: '1', appId: '103', title: 'New' })).toEqual({
			status: 1,
			title: 'New',
			solutionId: 103,
		});
	});

	it('orders ids numerically (string ids too)', () => {
		expect(['10', '9', 'x', '100'].sort(compareIds)).toEqual(['9', '10', '100', 'x']);
		const events = run({}, [
			{ id: '10', status: 0 },
			{ id: '9', status: 0 },
		]);
		expect(events.map((e) => e.installationId)).toEqual([9, 10]);
	});
});

describe('sampleItem', () => {
	const installation = { id: 5002, status: 0, solutionId: 101, title: 'Leads for Globex' };

	it('shapes the installation as Created when that event is chosen', () => {
		expect(sampleItem(installation, all)).toEqual({
			event: 'installationCreated',
			installationId: 5002,
			solutionId: 101,
			title: 'Leads for Globex',
			status: 0,
			previousStatus: null,
			installation,
			sample: true,
			sampleNote: expect.stringMatching(/^A sample: a live installation shaped as this event/),
		});
	});

	it('otherwise picks the status event matching the installation, else the first chosen', () => {
		expect(sampleItem(installation, only('installationStarted', 'installationPaused')).event).toBe(
			'installationPaused',
		);
		expect(sampleItem(installation, only('installationStarted')).event).toBe('installationStarted');
		expect(sampleItem(installation, only('installationRemoved'))).toMatchObject({
			event: 'installationRemoved',
			status: null,
			previousStatus: 0,
			// Never a live installation passed off as removed.
			sample: true,
			sampleNote: expect.stringMatching(/^A sample: this installation is still installed/),
		});
	});
});
