import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { locatorValue } from '../shared/descriptions/common.descriptions';
import { DETAIL_CONCURRENCY, getInstallation, listInstallations } from '../shared/api/installation';
import { bundlesOf, stepsOf } from '../shared/readers/bundles';
import { listRuns } from '../shared/api/run';
import { runDateMs, runOutcome } from '../shared/readers/runs';
import { sameId, solutionIdOf } from '../shared/readers/shapes';
import type { AlbatoClient } from '../shared/transport/client';
import { mapLimited } from '../shared/transport/mapLimited';
import type { EventKind, KindPoll, PollScope, TriggerStaticData } from './eventKind';
import { NoSampleError } from './noSample';
import { detectRunEvents, RUN_EVENTS, type RunEvent, runEventItem } from './runEvents';
import { readIdFilter, readSolutionFilter } from './solutionFilter';

/**
 * What a run poll watches: the chosen run events; only one installation's runs, and only runs of
 * one solution's installations, when given.
 */
interface RunWatch {
	events: Set<RunEvent>;
	installationId?: number;
	solutionId?: string;
}

/** Where a bundle belongs, for naming it in events and matching the Solution filter. */
type BundleInfo = {
	installationId: number | string;
	installationTitle: unknown;
	title: unknown;
	solutionId: string | number | undefined;
	/** Its steps' titles by step id, to name a run's failed step. */
	stepTitles: Map<string, string>;
};

/** The titles of an expanded bundle's steps, by step id. */
const stepTitlesOf = (bundle: IDataObject) =>
	new Map(stepsOf(bundle).map((step) => [String(step.id), String(step.title ?? '')]));

/**
 * Run Failed / Run Succeeded. A poll reads every run of the end user (or of one installation's
 * automations) and compares them with the baseline kept under `runEvents` in static data.
 */
export const runKind: EventKind = {
	events: RUN_EVENTS,
	choose(ctx, chosen) {
		const watch: RunWatch = {
			events: new Set(RUN_EVENTS.filter((event) => chosen.includes(event))),
			installationId: readInstallationFilter(ctx),
			solutionId: readSolutionFilter(ctx),
		};
		return {
			poll: async (scope) => await pollRuns(scope, watch),
			sample: async (scope) => await sampleRun(scope, watch),
		};
	},
};

/**
 * Installation ID (Run Events): a picker since version 2, text at version 1; both are read here
 * (a locator's value, or the text as saved).
 */
function readInstallationFilter(ctx: IPollFunctions): number | undefined {
	const raw = ctx.getNodeParameter('runInstallationId', '', { extractValue: true }) as unknown;
	const id = readIdFilter(raw);
	if (id !== 'bad') return id;
	const text = String(locatorValue(raw)).trim();
	throw new NodeOperationError(
		ctx.getNode(),
		`Installation ID (Run Events) must be an installation ID (a whole number, e.g. 5001), got "${text.slice(0, 40)}"`,
		{
			description:
				'Pick one installation from the list, give its ID, or leave it empty to watch every run',
		},
	);
}

/**
 * Whose runs a run baseline holds (end user and installation filter): a baseline of another scope
 * is not compared with, a new one is recorded.
 */
function scopeKey(owner: string | undefined, installationId: number | undefined): string {
	return `${owner ?? ''}\n${installationId ?? ''}`;
}

/** One poll against the run baseline; `commit` stores the next one (see KindPoll). */
async function pollRuns({ ctx, client, owner }: PollScope, watch: RunWatch): Promise<KindPoll> {
	const staticData = ctx.getWorkflowStaticData('node') as TriggerStaticData;
	const names = new Map<string, BundleInfo>();
	const runs = await readRuns(client, watch.installationId, names);
	const scope = scopeKey(owner, watch.installationId);
	const previous = staticData.runEvents?.scope === scope ? staticData.runEvents : undefined;
	const { events, next } = detectRunEvents(previous, scope, runs, watch.events, Date.now());
	if (events.length && watch.installationId === undefined)
		await nameBundles(client, names, watch.solutionId !== undefined);
	const partner = partnerOf(client);
	// Runs of other solutions' installations are known from now on, but not reported.
	const items = events
		.filter(({ run }) => ofWatchedSolution(names, run.bundleId, watch))
		.map(({ event, run }) =>
			runEventItem(
				event,
				run,
				{ ...partner, ...namesOf(names, run.bundleId) },
				infoOf(names, run.bundleId)?.stepTitles,
			),
		);
	return { items, commit: () => void (staticData.runEvents = next) };
}

/** In partner mode, the End User ID the runs were read for. */
function partnerOf(client: AlbatoClient): IDataObject {
	return client.partner ? { endUserId: client.partner.endUserId(undefined) } : {};
}

async function readRuns(
	client: AlbatoClient,
	installationId: number | undefined,
	names: Map<string, BundleInfo>,
): Promise<IDataObject[]> {
	if (installationId === undefined) return await listRuns(client);
	const installation = await getInstallation(client, installationId, {
		withBundles: true,
		withStatus: false,
	});
	const runs: IDataObject[] = [];
	for (const bundle of bundlesOf(installation)) {
		names.set(String(bundle.id), {
			installationId,
			installationTitle: installation.title ?? null,
			title: bundle.title ?? null,
			solutionId: solutionIdOf(installation),
			stepTitles: stepTitlesOf(bundle),
		});
		runs.push(...(await listRuns(client, { bundleId: String(bundle.id) })));
	}
	return runs;
}

/**
 * Names each bundle with its installation and solution (only when there is news to report, or for
 * a sample). Best effort without a Solution filter: the events come out without names rather than
 * being held back. With one, the solution decides what is reported, so a failure fails the poll
 * (nothing emitted, the baseline kept: the next poll reports what this one would have).
 */
async function nameBundles(
	client: AlbatoClient,
	names: Map<string, BundleInfo>,
	required: boolean,
): Promise<void> {
	try {
		const installations = await listInstallations(client);
		await mapLimited(installations, DETAIL_CONCURRENCY, async (item) => {
			const installation = await getInstallation(client, String(item.id), {
				withBundles: true,
				withStatus: false,
			});
			for (const bundle of bundlesOf(installation))
				names.set(String(bundle.id), {
					installationId: item.id as number,
					installationTitle: installation.title ?? item.title ?? null,
					title: bundle.title ?? null,
					solutionId: solutionIdOf(item) ?? solutionIdOf(installation),
					stepTitles: stepTitlesOf(bundle),
				});
			return true;
		});
	} catch (error) {
		if (required) throw error as Error;
	}
}

/**
 * Whether a run's automation belongs to an installation of the watched solution (always, without a
 * Solution filter). A run whose installation is not known (removed since) is not reported then.
 */
function ofWatchedSolution(
	names: Map<string, BundleInfo>,
	bundleId: unknown,
	watch: RunWatch,
): boolean {
	if (watch.solutionId === undefined) return true;
	const found = infoOf(names, bundleId);
	return found !== undefined && sameId(found.solutionId, watch.solutionId);
}

const infoOf = (names: Map<string, BundleInfo>, bundleId: unknown) =>
	[...names.entries()].find(([id]) => sameId(id, bundleId))?.[1];

function namesOf(names: Map<string, BundleInfo>, bundleId: unknown): IDataObject {
	const found = infoOf(names, bundleId);
	return {
		installationId: found?.installationId ?? null,
		installationTitle: found?.installationTitle ?? null,
		bundleTitle: found?.title ?? null,
	};
}

/** "Fetch Test Event": the newest run that ended as a chosen event; the baseline is untouched. */
async function sampleRun({ ctx, client }: PollScope, watch: RunWatch): Promise<IDataObject> {
	const names = new Map<string, BundleInfo>();
	const runs = await readRuns(client, watch.installationId, names);
	// A sample carries the names a real event carries (the installation's and the automation's).
	if (watch.installationId === undefined)
		await nameBundles(client, names, watch.solutionId !== undefined);
	const eventOf = (run: IDataObject): RunEvent | undefined => {
		const outcome = runOutcome(run);
		const event =
			outcome === 'failed' ? 'runFailed' : outcome === 'succeeded' ? 'runSucceeded' : undefined;
		return event && watch.events.has(event) && ofWatchedSolution(names, run.bundleId, watch)
			? event
			: undefined;
	};
	const newest = runs
		.filter((run) => eventOf(run) !== undefined)
		.sort((a, b) => (runDateMs(b.dateCreated) ?? 0) - (runDateMs(a.dateCreated) ?? 0))[0];
	if (!newest)
		throw new NoSampleError(
			ctx.getNode(),
			`No finished runs of the chosen kind found${watch.solutionId === undefined ? '' : ` of solution ${watch.solutionId}`}`,
			{
				description: 'Let an automation of this end user run once, then fetch a test event again',
			},
		);
	const extra = { ...partnerOf(client), ...namesOf(names, newest.bundleId) };
	return runEventItem(eventOf(newest)!, newest, extra, infoOf(names, newest.bundleId)?.stepTitles);
}
