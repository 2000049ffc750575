/**
 * Automation Failing / Automation Recovered: Run → Get New's Group Into Incidents for the one end
 * user the trigger watches. Which ended runs are new is decided as for Run Failed / Run Succeeded
 * (runEvents.ts, with a baseline of its own); the incidents are read from the runs listed by the
 * same pure `incidentEvents` (shared/readers/incidents.ts) that Get New uses.
 */
import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { incidentEvents } from '../shared/readers/incidents';
import { isEnded } from '../shared/readers/runs';
import { watchedRunsKey } from '../shared/readers/runKeys';
import { type EventKind, type KindPoll, type PollScope, staticDataOf } from './eventKind';
import { NoSampleError } from './noSample';
import { detectRunEvents, raiseFloor, type RunBaseline, RUN_EVENTS } from './runEvents';
import { readSolutionFilter } from './solutionFilter';
import { planRead, readInstallationFilter, readWatchedRuns } from './watchedRuns';

/** Automation Failing / Automation Recovered in the Events list. */
const INCIDENT_OPTIONS = [
	{
		name: 'Automation Failing',
		value: 'automationFailing',
		description:
			'An automation started failing: its first failed run after a success (further failures are counted, not reported). The first poll reports the automations failing then.',
	},
	{
		name: 'Automation Recovered',
		value: 'automationRecovered',
		description:
			'An automation that was failing ran without error again: with how long it failed and how many runs failed',
	},
] as const satisfies readonly INodePropertyOptions[];

export type IncidentEvent = (typeof INCIDENT_OPTIONS)[number]['value'];
export const INCIDENT_EVENTS: readonly IncidentEvent[] = INCIDENT_OPTIONS.map(
	(option) => option.value,
);

/** The incidents' items by the trigger's event names (reminders are not offered in the trigger). */
const EVENT_OF: Record<string, IncidentEvent> = {
	incidentOpened: 'automationFailing',
	incidentResolved: 'automationRecovered',
};

/**
 * What the trigger keeps for automation events (static data key `incidentEvents`): the ended runs
 * already seen, and those in progress (as for run events, own scope). Open incidents are read from
 * the runs listed, not kept (a baseline written by an older version may still hold `incidents`).
 */
export interface IncidentBaseline extends IDataObject {
	runs: RunBaseline;
}

interface IncidentWatch {
	events: Set<IncidentEvent>;
	installationId?: number;
	solutionId?: string;
}

const BASELINE_KEY = 'incidentEvents';

export const incidentKind: EventKind = {
	options: INCIDENT_OPTIONS,
	events: INCIDENT_EVENTS,
	baselineKey: BASELINE_KEY,
	choose(ctx, chosen) {
		const watch: IncidentWatch = {
			events: new Set(INCIDENT_EVENTS.filter((event) => chosen.includes(event))),
			installationId: readInstallationFilter(ctx),
			solutionId: readSolutionFilter(ctx),
		};
		return {
			plan: (scope) =>
				planRead(scope, watch.installationId, {
					baseline: baselineOf(scope, watch).previous?.runs,
					incidents: true,
				}),
			poll: async (scope) => await pollIncidents(scope, watch),
			sample: async (scope) => await sampleIncident(scope, watch),
		};
	},
};

/** Every ended run counts: failures open incidents, successes resolve them. */
const ENDED = new Set(RUN_EVENTS);

/**
 * One poll: the incidents that the ended runs not seen before open or resolve, read from the runs
 * listed. The first poll (or one for another end user or installation filter) is Get New's first sweep: the
 * history sets the state silently, and each automation failing now is reported once, as Automation
 * Failing; incidents already over are not.
 */
async function pollIncidents(scope: PollScope, watch: IncidentWatch): Promise<KindPoll> {
	const staticData = staticDataOf(scope);
	const read = await readWatchedRuns(scope, watch.installationId);
	const { key, previous } = baselineOf(scope, watch);
	const found = detectRunEvents(previous?.runs, key, read.runs, ENDED, Date.now());
	const { events } = found;
	const next = raiseFloor(found.next, read.floor);
	const firstPoll = previous === undefined;
	const fresh = new Set(events.map(({ run }) => String(read.item(run).id)));
	if (firstPoll ? read.runs.some(isEnded) : fresh.size)
		await read.name(watch.solutionId !== undefined);
	const items = incidentEvents({
		history: read.runs
			.filter((run) => isEnded(run) && read.ofSolution(run, watch.solutionId))
			.map(read.item),
		fresh,
		firstSweep: firstPoll,
		// endUserId: poll.ts puts it on every trigger item.
		endUserFields: {},
	});
	return {
		items: chosenItems(items, watch),
		commit: () => void (staticData[BASELINE_KEY] = { runs: next }),
	};
}

/** Whose runs the baseline is about, and the stored baseline when it is about them. */
function baselineOf(scope: PollScope, watch: IncidentWatch) {
	const key = watchedRunsKey(scope.owner, watch.installationId);
	const stored = staticDataOf(scope)[BASELINE_KEY] as IncidentBaseline | undefined;
	return { key, previous: stored?.runs?.scope === key ? stored : undefined };
}

/**
 * "Fetch Test Event": the newest incident of a chosen event in the runs listed now, as a poll would
 * have reported it (the same grouping, from no open incident); the baseline is untouched.
 */
async function sampleIncident(scope: PollScope, watch: IncidentWatch): Promise<IDataObject> {
	const read = await readWatchedRuns(scope, watch.installationId);
	await read.name(watch.solutionId !== undefined);
	const history = read.runs
		.filter((run) => isEnded(run) && read.ofSolution(run, watch.solutionId))
		.map(read.item);
	// Every run counts as new: each incident in the history is reported, the newest is the sample.
	const items = incidentEvents({
		history,
		fresh: new Set(history.map((item) => String(item.id))),
		firstSweep: false,
		endUserFields: {},
	});
	const newest = chosenItems(items, watch).at(-1);
	if (newest) return newest;
	const of = watch.solutionId === undefined ? '' : ` of solution ${watch.solutionId}`;
	throw new NoSampleError(
		scope.ctx.getNode(),
		watch.events.has('automationFailing')
			? `No failed runs found${of}`
			: `No automation recovered from failed runs${of}`,
		{
			description:
				'Let an automation of this end user fail once (and succeed after it, for Automation Recovered), then fetch a test event again',
		},
	);
}

/** The grouping's items of the chosen events, named as the trigger's events. */
function chosenItems(items: IDataObject[], watch: IncidentWatch): IDataObject[] {
	return items
		.map((item) => ({ ...item, event: EVENT_OF[String(item.event)] }))
		.filter((item) => watch.events.has(item.event));
}
