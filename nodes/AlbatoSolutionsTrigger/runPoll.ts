/**
 * Run Failed / Run Succeeded. A poll reads the end user's runs (or one installation's automations'),
 * newest first down to what its baseline needs (runReach.ts), and compares them with the baseline
 * kept under `runEvents` in static data.
 */
import type { IDataObject } from 'n8n-workflow';

import { runDateMs, runOutcome } from '../shared/readers/runs';
import { watchedRunsKey } from '../shared/readers/runKeys';
import { type EventKind, type KindPoll, type PollScope, staticDataOf } from './eventKind';
import { NoSampleError } from './noSample';
import {
	detectRunEvents,
	raiseFloor,
	type RunBaseline,
	RUN_EVENTS,
	type RunEvent,
	runEventItem,
	RUN_OPTIONS,
} from './runEvents';
import { readSolutionFilter } from './solutionFilter';
import { planRead, readInstallationFilter, readWatchedRuns, type WatchedRuns } from './watchedRuns';

/**
 * What a run poll watches: the chosen run events; only one installation's runs, and only runs of
 * one solution's installations, when given.
 */
interface RunWatch {
	events: Set<RunEvent>;
	installationId?: number;
	solutionId?: string;
}

const BASELINE_KEY = 'runEvents';

export const runKind: EventKind = {
	options: RUN_OPTIONS,
	events: RUN_EVENTS,
	baselineKey: BASELINE_KEY,
	choose(ctx, chosen) {
		const watch: RunWatch = {
			events: new Set(RUN_EVENTS.filter((event) => chosen.includes(event))),
			installationId: readInstallationFilter(ctx),
			solutionId: readSolutionFilter(ctx),
		};
		return {
			plan: (scope) =>
				planRead(scope, watch.installationId, {
					baseline: baselineOf(scope, watch).previous,
					incidents: false,
				}),
			poll: async (scope) => await pollRuns(scope, watch),
			sample: async (scope) => await sampleRun(scope, watch),
		};
	},
};

/** One poll against the run baseline; `commit` stores the next one (see KindPoll). */
async function pollRuns(scope: PollScope, watch: RunWatch): Promise<KindPoll> {
	const staticData = staticDataOf(scope);
	const read = await readWatchedRuns(scope, watch.installationId);
	const { key, previous } = baselineOf(scope, watch);
	const found = detectRunEvents(previous, key, read.runs, watch.events, Date.now());
	const { events } = found;
	const next = raiseFloor(found.next, read.floor);
	if (events.length) await read.name(watch.solutionId !== undefined);
	// Runs of other solutions' installations are known from now on, but not reported.
	const items = events
		.filter(({ run }) => read.ofSolution(run, watch.solutionId))
		.map(({ event, run }) => eventItem(read, event, run));
	return { items, commit: () => void (staticData[BASELINE_KEY] = next) };
}

/** Whose runs the baseline is about, and the stored baseline when it is about them. */
function baselineOf(scope: PollScope, watch: RunWatch) {
	const key = watchedRunsKey(scope.owner, watch.installationId);
	const stored = staticDataOf(scope)[BASELINE_KEY] as RunBaseline | undefined;
	return { key, previous: stored?.scope === key ? stored : undefined };
}

/** A run event's item, with the names of the run's automation. */
const eventItem = (read: WatchedRuns, event: RunEvent, run: IDataObject) =>
	runEventItem(event, run, read.namesOf(run), read.automationOf(run)?.stepTitles);

/** "Fetch Test Event": the newest run that ended as a chosen event; the baseline is untouched. */
async function sampleRun(scope: PollScope, watch: RunWatch): Promise<IDataObject> {
	const read = await readWatchedRuns(scope, watch.installationId);
	// A sample carries the names a real event carries (the installation's and the automation's).
	await read.name(watch.solutionId !== undefined);
	const eventOf = (run: IDataObject): RunEvent | undefined => {
		const outcome = runOutcome(run);
		const event =
			outcome === 'failed' ? 'runFailed' : outcome === 'succeeded' ? 'runSucceeded' : undefined;
		return event && watch.events.has(event) && read.ofSolution(run, watch.solutionId)
			? event
			: undefined;
	};
	const newest = read.runs
		.filter((run) => eventOf(run) !== undefined)
		.sort((a, b) => (runDateMs(b.dateCreated) ?? 0) - (runDateMs(a.dateCreated) ?? 0))[0];
	if (!newest)
		throw new NoSampleError(
			scope.ctx.getNode(),
			`No finished runs of the chosen kind found${watch.solutionId === undefined ? '' : ` of solution ${watch.solutionId}`}`,
			{
				description: 'Let an automation of this end user run once, then fetch a test event again',
			},
		);
	return eventItem(read, eventOf(newest)!, newest);
}
