import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	bundlesOf,
	DETAIL_CONCURRENCY,
	getInstallation,
	listInstallations,
} from '../shared/api/installation';
import { listRuns } from '../shared/api/run';
import { runDateMs, runOutcome } from '../shared/readers/runs';
import { positiveIdOf, sameId } from '../shared/readers/shapes';
import { AlbatoClient } from '../shared/transport/client';
import { mapLimited } from '../shared/transport/mapLimited';
import { NoSampleError } from './noSample';
import { ownerOf } from './poll';
import {
	detectRunEvents,
	RUN_EVENTS,
	type RunBaseline,
	type RunEvent,
	runEventItem,
} from './runEvents';

/** Where a bundle belongs, for naming it in events. */
type BundleInfo = { installationId: number | string; installationTitle: unknown; title: unknown };

export function chosenRunEvents(ctx: IPollFunctions): Set<RunEvent> {
	const raw = ctx.getNodeParameter('events', []) as unknown;
	const chosen = (Array.isArray(raw) ? raw : [raw]).map(String);
	return new Set(RUN_EVENTS.filter((event) => chosen.includes(event)));
}

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

/** Baselines with a run poll going (overlapping polls of one workflow share the static data object). */
const polling = new WeakSet<object>();

/**
 * One poll for run events. Reads every run of the end user (or of the installation's automations),
 * compares them with the baseline and answers the new items; `commit` stores the next baseline and is
 * called only once every other part of the poll succeeded, so a failed poll changes nothing.
 */
export async function pollRunEvents(
	ctx: IPollFunctions,
	watch: Set<RunEvent>,
): Promise<{ items: IDataObject[]; commit: () => void }> {
	const installationId = readInstallationFilter(ctx);
	const client = await AlbatoClient.create(ctx);
	const manual = ctx.getMode() === 'manual';
	const staticData = ctx.getWorkflowStaticData('node');
	if (!manual && polling.has(staticData)) return { items: [], commit: () => {} };
	if (!manual) polling.add(staticData);
	try {
		const names = new Map<string, BundleInfo>();
		const runs = await readRuns(client, installationId, names);
		const partner = client.partner ? { endUserId: client.partner.endUserId(undefined) } : {};
		if (manual) return { items: [sample(ctx, runs, watch, names, partner)], commit: () => {} };

		const scope = `${ownerOf(client) ?? ''}\n${installationId ?? ''}`;
		const stored = staticData.runEvents as RunBaseline | undefined;
		const previous = stored?.scope === scope ? stored : undefined;
		const { events, next } = detectRunEvents(previous, scope, runs, watch, Date.now());
		if (events.length && installationId === undefined) await nameBundles(client, names);
		const items = events.map(({ event, run }) =>
			runEventItem(event, run, { ...partner, ...namesOf(names, run.bundleId) }),
		);
		return { items, commit: () => void (staticData.runEvents = next) };
	} finally {
		if (!manual) polling.delete(staticData);
	}
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

/** "Fetch Test Event": the newest run that ended as one of the chosen events; the baseline is untouched. */
function sample(
	ctx: IPollFunctions,
	runs: IDataObject[],
	watch: Set<RunEvent>,
	names: Map<string, BundleInfo>,
	partner: IDataObject,
): IDataObject {
	const eventOf = (run: IDataObject): RunEvent | undefined => {
		const outcome = runOutcome(run);
		const event =
			outcome === 'failed' ? 'runFailed' : outcome === 'succeeded' ? 'runSucceeded' : undefined;
		return event && watch.has(event) ? event : undefined;
	};
	const newest = runs
		.filter((run) => eventOf(run) !== undefined)
		.sort((a, b) => (runDateMs(b.dateCreated) ?? 0) - (runDateMs(a.dateCreated) ?? 0))[0];
	if (!newest)
		throw new NoSampleError(ctx.getNode(), 'No finished runs of the chosen kind found', {
			description: 'Let an automation of this end user run once, then fetch a test event again',
		});
	return runEventItem(eventOf(newest)!, newest, { ...partner, ...namesOf(names, newest.bundleId) });
}
