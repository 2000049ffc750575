/**
 * Run → Get New's sweep windows, the answer (window/windowAnswer.ts): given the runs read for one
 * end user and the ticks this execution returns for it, which runs (or incidents) it outputs. Pure:
 * no n8n-core, no service; the runs are shaped as the service lists them.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Job } from '../../../nodes/AlbatoSolutions/actions/run/newRunsJob';
import { TICK_MS, tickOf } from '../../../nodes/AlbatoSolutions/actions/run/window/ticks';
import {
	itemsIn,
	windowItems,
	type WindowScope,
} from '../../../nodes/AlbatoSolutions/actions/run/window/windowAnswer';
import type { WindowRead } from '../../../nodes/AlbatoSolutions/actions/run/window/windowRead';

/** What the execution returns for one end user once it has settled `scope.allowed`. */
const windowAnswer = (read: WindowRead, scope: WindowScope) =>
	itemsIn(windowItems(read, scope), scope.allowed);

const B = tickOf(Date.UTC(2027, 0, 4));
/** The start of tick B + n, in ms. */
const at = (n: number) => (B + n) * TICK_MS;
const iso = (ms: number) => new Date(ms).toISOString();

/** A run of `bundleId` that ended at `end` (its one step's date), started a second before. */
function run(id: number, end: number, { bundleId = 7, status = 1 } = {}): IDataObject {
	return {
		id,
		bundleId,
		status,
		dateCreated: iso(end - 1000),
		steps: [
			{
				id: id * 10,
				status,
				error: status === 2 ? { message: 'boom' } : null,
				dateCreated: iso(end),
			},
		],
	};
}

function job(more: Partial<Job> = {}): Job {
	return {
		itemIndex: 0,
		key: 'end user c1',
		scope: 'endUser',
		status: 'any',
		offset: 0,
		limits: { perEndUser: 10, total: 1000 },
		windowed: { group: '', latenessMs: 0 },
		...more,
	};
}

const answer = (
	runs: IDataObject[],
	scope: { allowed: number[]; first?: boolean; end?: number },
	more: Partial<Job> = {},
) =>
	windowAnswer(
		{ job: job(more), runs, names: new Map() },
		{
			allowed: new Set(scope.allowed.map((n) => B + n)),
			first: scope.first ?? false,
			end: B + (scope.end ?? 20),
		},
	);
const ids = (items: IDataObject[]) => items.map((item) => item.id);

describe('runs', () => {
	const runs = [
		run(1, at(0) + 5000), // tick 0: not allowed
		run(5, at(1) + 90_000),
		run(3, at(1) + 30_000),
		run(4, at(1) + 30_000), // same end as 3: the lower id first
		run(6, at(2) - 1), // the last millisecond of tick 1
		run(7, at(2)), // the first of tick 2: not allowed
		run(8, at(3) + 1000),
		run(5, at(1) + 90_000), // listed twice (the list moved between pages): once
		{ ...run(9, at(1) + 2000, { status: 0 }) }, // in progress
		{ id: 10, bundleId: 7, status: 1, dateCreated: 'not a date' }, // its end cannot be read
		{ bundleId: 7, status: 1, dateCreated: iso(at(1) + 3000) }, // no id
	];

	it('those that ended in the allowed ticks, each once, oldest first by their end, ties by id', () => {
		expect(ids(answer(runs, { allowed: [1, 3] }))).toEqual([3, 4, 5, 6, 8]);
		expect(ids(answer(runs, { allowed: [0, 2] }))).toEqual([1, 7]);
		expect(answer(runs, { allowed: [] })).toEqual([]);
	});

	it('as output items, named by the end user', () => {
		const [item] = answer([run(3, at(1))], { allowed: [1] }, { endUserId: 'c1' });
		expect(item).toMatchObject({
			id: 3,
			bundleId: 7,
			endUserId: 'c1',
			outcome: 'succeeded',
			installationId: null,
		});
	});

	it('Filters → Status keeps the runs with that outcome only', () => {
		const mixed = [run(1, at(1)), run(2, at(1) + 1, { status: 2 }), run(3, at(1) + 2)];
		expect(ids(answer(mixed, { allowed: [1] }, { status: 'failed' }))).toEqual([2]);
		expect(ids(answer(mixed, { allowed: [1] }, { status: 'succeeded' }))).toEqual([1, 3]);
		expect(ids(answer(mixed, { allowed: [1] }, { status: 'any' }))).toEqual([1, 2, 3]);
	});

	it('a first sweep: the newest Max Remembered Runs per End User that ended before its end tick, whatever the ticks', () => {
		const many = Array.from({ length: 14 }, (_, n) => run(n + 1, at(n)));
		const first = { allowed: [0], first: true, end: 12 };
		// Runs 1–12 ended before tick 12; run 13 ended on its first millisecond.
		expect(ids(answer(many, first))).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
		expect(ids(answer(many.slice(0, 5), first))).toEqual([1, 2, 3, 4, 5]);
		expect(ids(answer(many, first, { limits: { perEndUser: 11, total: 1000 } }))).toHaveLength(11);
		// An execution that returns no tick for the end user returns nothing of it.
		expect(answer(many, { ...first, allowed: [] })).toEqual([]);
	});
});

describe('Group Into Incidents', () => {
	const events = (items: IDataObject[]) =>
		items.map((item) => `${String(item.event)} ${String(item.bundleId)}`);
	const incidents = (remindAfterMs = 0) => ({ incidents: { remindAfterMs }, endUserId: 'c1' });

	it('each span of allowed ticks reports what the runs that ended in it opened and resolved', () => {
		const runs = [
			run(1, at(0)),
			run(2, at(1) + 1000, { status: 2 }),
			run(3, at(5) + 1000),
			run(4, at(3), { bundleId: 8, status: 2 }),
		];
		const items = answer(runs, { allowed: [1, 2, 5] }, incidents());
		expect(events(items)).toEqual(['incidentOpened 7', 'incidentResolved 7']);
		expect(items[0]).toMatchObject({ endUserId: 'c1', failedRuns: 1, openedAt: iso(at(1)) });
		// The spans alone: an opening reported where its run ended only.
		expect(events(answer(runs, { allowed: [5] }, incidents()))).toEqual(['incidentResolved 7']);
		expect(events(answer(runs, { allowed: [3] }, incidents()))).toEqual(['incidentOpened 8']);
		expect(events(answer(runs, { allowed: [4] }, incidents()))).toEqual([]);
	});

	it('a first sweep opens what is failing before its end tick, or nothing when no tick is returned', () => {
		const runs = [
			run(1, at(0)),
			run(2, at(1), { status: 2 }),
			run(3, at(4), { bundleId: 8, status: 2 }),
		];
		const first = { allowed: [0], first: true, end: 3 };
		expect(events(answer(runs, first, incidents()))).toEqual(['incidentOpened 7']);
		expect(answer(runs, { ...first, allowed: [] }, incidents())).toEqual([]);
	});

	it('a reminder is returned by the span in which it fell due, not with the opening in the same span', () => {
		const tenMinutes = 2 * TICK_MS;
		const runs = [run(1, at(0)), run(2, at(1) + 60_000, { status: 2 })];
		// Opened in tick 1 (started 59 s into it); due every 10 minutes after.
		expect(events(answer(runs, { allowed: [1, 2, 3, 4, 5] }, incidents(tenMinutes)))).toEqual([
			'incidentOpened 7',
		]);
		// Ticks 8–9: due 44 min 1 s after the opening, 4 min 1 s before the span's end.
		const due = answer(runs, { allowed: [8, 9] }, incidents(tenMinutes));
		expect(events(due)).toEqual(['incidentReminder 7']);
		expect(due[0]).toMatchObject({ openForSeconds: 9 * 300 - 59, lastFailedRunId: 2 });
		// Tick 8 alone ends 39 min 1 s after: the reminder fell due in tick 7, not here.
		expect(answer(runs, { allowed: [8] }, incidents(tenMinutes))).toEqual([]);
		// Ticks 7–8: due in tick 7, 59 s after the span began.
		expect(events(answer(runs, { allowed: [7, 8] }, incidents(tenMinutes)))).toEqual([
			'incidentReminder 7',
		]);
		// Never reminded when Remind After is 0.
		expect(answer(runs, { allowed: [8, 9] }, incidents(0))).toEqual([]);
	});
});
