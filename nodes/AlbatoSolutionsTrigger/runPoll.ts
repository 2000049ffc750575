import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DETAIL_CONCURRENCY, getInstallation, listInstallations } from '../shared/api/installation';
import { bundlesOf } from '../shared/readers/bundles';
import { listRuns } from '../shared/api/run';
import { runDateMs, runOutcome } from '../shared/readers/runs';
import { positiveIdOf, sameId } from '../shared/readers/shapes';
import type { AlbatoClient } from '../shared/transport/client';
import { mapLimited } from '../shared/transport/mapLimited';
import type { EventKind, KindPoll, PollScope, TriggerStaticData } from './eventKind';
import { NoSampleError } from './noSample';
import { detectRunEvents, RUN_EVENTS, type RunEvent, runEventItem } from './runEvents';

/** What a run poll watches: the chosen run events, and only one installation's runs when given. */
interface RunWatch {
	events: Set<RunEvent>;
	installationId?: number;
}

/** Where a bundle belongs, for naming it in events. */
type BundleInfo = { installationId: number | string; installationTitle: unknown; title: unknown };

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
		};
		return {
			poll: async (scope) => await pollRuns(scope, watch),
			sample: async (scope) => await sampleRun(scope, watch),
		};
	},
};

function readInstallationFilter(ctx: IPollFunctions): number | undefined {
	const raw = ctx.getNodeParameter('runInstallationId', '') as unknown;
	const text = raw === undefined || raw === null ? '' : String(raw).trim();
	if (text === '') return undefined;
	const id = positiveIdOf(text);
	if (id === undefined)
		throw new NodeOperationError(
			ctx.getNode(),
			`Installation ID (Run Events) must be an installation ID (a whole number), got "${text.slice(0, 40)}"`,
			{ description: 'Give the ID of one installation, or leave it empty to watch every run' },
		);
	return id;
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
	if (events.length && watch.installationId === undefined) await nameBundles(client, names);
	const partner = partnerOf(client);
	const items = events.map(({ event, run }) =>
		runEventItem(event, run, { ...partner, ...namesOf(names, run.bundleId) }),
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
		});
		runs.push(...(await listRuns(client, { bundleId: String(bundle.id) })));
	}
	return runs;
}

/** Names each bundle with its installation (only when there is news to report). Best effort. */
async function nameBundles(client: AlbatoClient, names: Map<string, BundleInfo>): Promise<void> {
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
				});
			return true;
		});
	} catch {
		// The events are reported without names rather than held back.
	}
}

function namesOf(names: Map<string, BundleInfo>, bundleId: unknown): IDataObject {
	const found = [...names.entries()].find(([id]) => sameId(id, bundleId))?.[1];
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
	const eventOf = (run: IDataObject): RunEvent | undefined => {
		const outcome = runOutcome(run);
		const event =
			outcome === 'failed' ? 'runFailed' : outcome === 'succeeded' ? 'runSucceeded' : undefined;
		return event && watch.events.has(event) ? event : undefined;
	};
	const newest = runs
		.filter((run) => eventOf(run) !== undefined)
		.sort((a, b) => (runDateMs(b.dateCreated) ?? 0) - (runDateMs(a.dateCreated) ?? 0))[0];
	if (!newest)
		throw new NoSampleError(ctx.getNode(), 'No finished runs of the chosen kind found', {
			description: 'Let an automation of this end user run once, then fetch a test event again',
		});
	const extra = { ...partnerOf(client), ...namesOf(names, newest.bundleId) };
	return runEventItem(eventOf(newest)!, newest, extra);
}
