import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { locatorValue } from '../shared/descriptions/common.descriptions';
import { DETAIL_CONCURRENCY, getInstallation, listInstallations } from '../shared/api/installation';
import { bundlesOf, stepsOf } from '../shared/readers/bundles';
import { listRuns } from '../shared/api/run';
import { runDateMs, runItem, runOutcome } from '../shared/readers/runs';
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
export function readInstallationFilter(ctx: IPollFunctions): number | undefined {
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
export function scopeKey(owner: string | undefined, installationId: number | undefined): string {
	return `${owner ?? ''}\n${installationId ?? ''}`;
}

/** One poll against the run baseline; `commit` stores the next one (see KindPoll). */
async function pollRuns(scope: PollScope, watch: RunWatch): Promise<KindPoll> {
	const { ctx, client, owner } = scope;
	const staticData = ctx.getWorkflowStaticData('node') as TriggerStaticData;
	const read = await readWatchedRuns(scope, watch.installationId);
	const key = scopeKey(owner, watch.installationId);
	const previous = staticData.runEvents?.scope === key ? staticData.runEvents : undefined;
	const { events, next } = detectRunEvents(previous, key, read.runs, watch.events, Date.now());
	if (events.length) await read.name(watch.solutionId !== undefined);
	const partner = partnerOf(client);
	// Runs of other solutions' installations are known from now on, but not reported.
	const items = events
		.filter(({ run }) => read.ofSolution(run, watch.solutionId))
		.map(({ event, run }) =>
			runEventItem(
				event,
				run,
				{ ...partner, ...namesOf(read.names, run.bundleId) },
				infoOf(read.names, run.bundleId)?.stepTitles,
			),
		);
	return { items, commit: () => void (staticData.runEvents = next) };
}

/**
 * The runs one poll read, shared by every kind that watches runs (Run Failed / Run Succeeded and
 * Automation Failing / Automation Recovered): the list is read once per poll, and the bundles
 * named at most once.
 */
export interface WatchedRuns {
	runs: IDataObject[];
	names: Map<string, BundleInfo>;
	/**
	 * Names each bundle (installations and their automations; nothing to do with an installation
	 * filter). Best effort unless `required` (a Solution filter: the names decide what is reported).
	 */
	name: (required: boolean) => Promise<void>;
	/** Whether a run belongs to the watched solution (always, without a Solution filter). */
	ofSolution: (run: IDataObject, solutionId: string | undefined) => boolean;
	/** A run as Run → Get Many gives it, with endUserId (partner mode) and its bundle's names. */
	item: (run: IDataObject) => IDataObject;
}

const pollReads = new WeakMap<PollScope, Map<string, Promise<WatchedRuns>>>();

/** This poll's read of the runs (of one installation's automations, when given): once per poll. */
export async function readWatchedRuns(
	scope: PollScope,
	installationId: number | undefined,
): Promise<WatchedRuns> {
	const reads = pollReads.get(scope) ?? new Map<string, Promise<WatchedRuns>>();
	pollReads.set(scope, reads);
	const key = String(installationId ?? '');
	let read = reads.get(key);
	if (!read) {
		read = readOnce(scope.client, installationId);
		reads.set(key, read);
	}
	return await read;
}

async function readOnce(
	client: AlbatoClient,
	installationId: number | undefined,
): Promise<WatchedRuns> {
	const names = new Map<string, BundleInfo>();
	const runs = await readRuns(client, installationId, names);
	let named: Promise<void> | undefined;
	return {
		runs,
		names,
		name: async (required) => {
			if (installationId !== undefined) return;
			named ??= nameBundles(client, names);
			try {
				await named;
			} catch (error) {
				if (required) throw error as Error;
			}
		},
		ofSolution: (run, solutionId) => ofWatchedSolution(names, run.bundleId, solutionId),
		item: (run) => ({
			...partnerOf(client),
			...namesOf(names, run.bundleId),
			...runItem(run, 0, infoOf(names, run.bundleId)?.stepTitles),
		}),
	};
}

/** In partner mode, the End User ID the runs were read for. */
export function partnerOf(client: AlbatoClient): IDataObject {
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
 * a sample); a failure is the caller's to weigh (WatchedRuns.name). Best effort without a Solution
 * filter: the events come out without names rather than being held back. With one, the solution
 * decides what is reported, so a failure fails the poll (nothing emitted, the baseline kept: the
 * next poll reports what this one would have).
 */
async function nameBundles(client: AlbatoClient, names: Map<string, BundleInfo>): Promise<void> {
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
}

/**
 * Whether a run's automation belongs to an installation of the watched solution (always, without a
 * Solution filter). A run whose installation is not known (removed since) is not reported then.
 */
function ofWatchedSolution(
	names: Map<string, BundleInfo>,
	bundleId: unknown,
	solutionId: string | undefined,
): boolean {
	if (solutionId === undefined) return true;
	const found = infoOf(names, bundleId);
	return found !== undefined && sameId(found.solutionId, solutionId);
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
async function sampleRun(scope: PollScope, watch: RunWatch): Promise<IDataObject> {
	const { ctx, client } = scope;
	const read = await readWatchedRuns(scope, watch.installationId);
	const { runs, names } = read;
	// A sample carries the names a real event carries (the installation's and the automation's).
	await read.name(watch.solutionId !== undefined);
	const eventOf = (run: IDataObject): RunEvent | undefined => {
		const outcome = runOutcome(run);
		const event =
			outcome === 'failed' ? 'runFailed' : outcome === 'succeeded' ? 'runSucceeded' : undefined;
		return event &&
			watch.events.has(event) &&
			ofWatchedSolution(names, run.bundleId, watch.solutionId)
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
