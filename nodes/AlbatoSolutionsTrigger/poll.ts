import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DETAIL_CONCURRENCY, detailOrGone, listInstallations } from '../shared/api/installation';
import { mapLimited } from '../shared/transport/mapLimited';
import { isObject, positiveIdOf, solutionIdOf, statusOf } from '../shared/readers/shapes';
import { AlbatoClient } from '../shared/transport/client';
import { authenticationOf } from '../shared/transport/partnerCredential';
import { checkEndUserId } from '../shared/readers/mintedToken';
import { PARTNER_API } from '../shared/constants';
import {
	compareIds,
	detectEvents,
	EVENTS,
	type InstallationEvent,
	isWatched,
	normalizeId,
	sampleItem,
	seenOf,
	type Snapshot,
	type Watch,
} from './installationEvents';
import { NoSampleError } from './noSample';
import { RUN_EVENTS } from './runEvents';

/** Where the trigger keeps its baseline: the workflow's static data of this node. */
export interface TriggerStaticData extends IDataObject {
	installations?: Snapshot;
	/** Whose installations the baseline holds (base URL and end user; never a token or its digest). */
	owner?: string;
}

/**
 * Whom the client watches, when it can be told: a token without a subject is known only by a digest,
 * and a new such token may be the same end user, so it is not compared (and not stored).
 */
export function ownerOf(client: AlbatoClient): string | undefined {
	const principal = client.principal(undefined);
	return / token:[0-9a-f]+$/.test(principal) ? undefined : principal;
}

export function readWatch(ctx: IPollFunctions): Watch {
	const raw = ctx.getNodeParameter('events', []) as unknown;
	// Run events are runPoll.ts's.
	const chosen = (Array.isArray(raw) ? raw : [raw])
		.map(String)
		.filter((event) => !(RUN_EVENTS as readonly string[]).includes(event));
	const unknown = chosen.filter((event) => !(EVENTS as readonly string[]).includes(event));
	if (chosen.length === 0 || unknown.length > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			chosen.length === 0
				? 'Choose at least one event to watch'
				: `Unknown event ${unknown.map((e) => `"${e}"`).join(', ')}`,
			{ description: `Events are ${[...EVENTS, ...RUN_EVENTS].join(', ')}` },
		);
	}
	const value = ctx.getNodeParameter('solutionId', '', { extractValue: true }) as unknown;
	// A locator with no value at all (n8n hands the locator object back): no solution chosen.
	const text =
		value === undefined || value === null || typeof value === 'object' ? '' : String(value).trim();
	const solutionId = positiveIdOf(text);
	if (text !== '' && solutionId === undefined) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Solution must be a solution ID (a whole number), got "${text.slice(0, 40)}"`,
			{
				description:
					'Pick a solution from the list, give its ID, or leave it empty to watch all installations',
			},
		);
	}
	return {
		events: new Set(chosen as InstallationEvent[]),
		solutionId: solutionId === undefined ? undefined : String(solutionId),
	};
}

/** The installation's detail merged over its list item; undefined when it vanished in between (404). */
const withDetail = async (client: AlbatoClient, item: IDataObject) =>
	await detailOrGone(client, item, { withStatus: false });

/**
 * One poll: a single list call, detail calls only for what the list lacks (status, solution),
 * then the changes against the baseline in static data. The first poll only records the baseline.
 * Static data is written only after every call succeeded, so a failed poll is simply retried.
 */
export async function pollEvents(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	return await pollGuarded(ctx);
}

/**
 * Every event item, whatever produced it (installation and run events), passes here: in partner
 * mode it carries the End User ID it was polled for, so the next nodes can act as that end user
 * with {{ $json.endUserId }}.
 */
export function withEndUser(
	ctx: IPollFunctions,
	output: INodeExecutionData[][] | null,
): INodeExecutionData[][] | null {
	if (output === null || authenticationOf(ctx) !== PARTNER_API) return output;
	const checked = checkEndUserId(ctx.getNodeParameter('endUserId', ''));
	if (!('id' in checked)) return output;
	return output.map((items) =>
		items.map((item) => ({ ...item, json: { ...item.json, endUserId: checked.id } })),
	);
}

async function pollGuarded(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	if (ctx.getMode() === 'manual') return await pollOnce(ctx);
	// n8n starts a poll at each Poll Times entry without waiting for the last one: two entries that
	// fire together, or a poll slower than the interval, would compare the same baseline twice and
	// emit each change twice. A poll that finds another running on this baseline does nothing; the
	// running one reports what it sees, and the next poll what came after (nothing is lost).
	const baselineObject = ctx.getWorkflowStaticData('node');
	if (polling.has(baselineObject)) return null;
	polling.add(baselineObject);
	try {
		return await pollOnce(ctx);
	} finally {
		polling.delete(baselineObject);
	}
}

/** Baselines (the static data objects, shared by overlapping polls of one workflow) with a poll running. */
const polling = new WeakSet<object>();

async function pollOnce(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const watch = readWatch(ctx);
	const client = await AlbatoClient.create(ctx);
	const listed = (await listInstallations(client)).filter(
		(item) => isObject(item) && item.id !== undefined && item.id !== null,
	);

	if (ctx.getMode() === 'manual') return [[{ json: await newest(ctx, client, listed, watch) }]];

	const staticData = ctx.getWorkflowStaticData('node') as TriggerStaticData;
	// Another end user (credential or End User ID changed): their installations are not news, and the
	// previous user's are not removed. A new baseline is recorded, as on the first poll.
	const owner = ownerOf(client);
	const switched =
		owner !== undefined && staticData.owner !== undefined && staticData.owner !== owner;
	const previous = switched ? undefined : staticData.installations;
	const baseline = previous === undefined;
	const wantsStatus =
		watch.events.has('installationStarted') || watch.events.has('installationPaused');

	const current = new Map<string, IDataObject>();
	const toDetail: IDataObject[] = [];
	for (const item of listed) {
		const id = String(item.id);
		const before = previous?.[id];
		const solutionId = solutionIdOf(item) ?? before?.solutionId ?? undefined;
		current.set(id, item);
		if (solutionId !== undefined && !isWatched(watch, solutionId)) continue;
		const isNew = !baseline && !before;
		const lacksSolution = watch.solutionId !== undefined && solutionId === undefined;
		const lacksStatus =
			statusOf(item) === undefined &&
			(wantsStatus || (isNew && watch.events.has('installationCreated')));
		if (lacksSolution || lacksStatus) toDetail.push(item);
	}
	const gone = new Set<string>();
	await mapLimited(toDetail, DETAIL_CONCURRENCY, async (item) => {
		const detailed = await withDetail(client, item);
		if (detailed) current.set(String(item.id), detailed);
		else {
			current.delete(String(item.id));
			gone.add(String(item.id));
		}
		return true;
	});

	// Missing from the list is not yet removed (the list may lag or leave items out): only a detail
	// call answering 404 confirms it. Until then the installation stays in the baseline, unreported.
	const pending = previous
		? await confirmRemovals(client, previous, current, gone, watch)
		: new Set<string>();

	const next: Snapshot = {};
	for (const id of [...current.keys(), ...pending].sort(compareIds))
		next[id] = current.has(id) ? seenOf(current.get(id)!, previous?.[id]) : previous![id];
	if (JSON.stringify(previous) !== JSON.stringify(next)) staticData.installations = next;
	if (owner !== undefined && staticData.owner !== owner) staticData.owner = owner;
	else if (owner === undefined && staticData.owner !== undefined) delete staticData.owner;
	if (baseline) return null;

	const settled = Object.fromEntries(Object.entries(previous).filter(([id]) => !pending.has(id)));
	const events = detectEvents(settled, current, next, watch);
	return events.length ? [ctx.helpers.returnJsonArray(events)] : null;
}

/**
 * Asks for the detail of every watched installation the baseline has and the list lacks (unless its
 * detail already answered 404 in this poll). 404: it is
 * gone (left out of `current`, so Removed is reported). Found: the list left it out; it goes into
 * `current` as it is now. Any other failure: it stays pending (returned), to be asked again next poll.
 */
async function confirmRemovals(
	client: AlbatoClient,
	previous: Snapshot,
	current: Map<string, IDataObject>,
	gone: Set<string>,
	watch: Watch,
): Promise<Set<string>> {
	const missing = Object.keys(previous).filter(
		(id) => !current.has(id) && !gone.has(id) && isWatched(watch, previous[id].solutionId),
	);
	const pending = new Set<string>();
	await mapLimited(missing, DETAIL_CONCURRENCY, async (id) => {
		try {
			const detail = await withDetail(client, { id: normalizeId(id) });
			if (detail) current.set(id, detail);
		} catch {
			pending.add(id);
		}
		return true;
	});
	return pending;
}

/** "Fetch Test Event": the newest installation (highest id) that is watched, without touching the baseline. */
async function newest(
	ctx: IPollFunctions,
	client: AlbatoClient,
	listed: IDataObject[],
	watch: Watch,
): Promise<IDataObject> {
	const byNewest = [...listed].sort((a, b) => compareIds(String(b.id), String(a.id)));
	for (const item of byNewest) {
		const solutionId = solutionIdOf(item);
		if (solutionId !== undefined && !isWatched(watch, solutionId)) continue;
		const installation =
			solutionId === undefined || statusOf(item) === undefined
				? await withDetail(client, item)
				: item;
		if (installation && isWatched(watch, solutionIdOf(installation)))
			return sampleItem(installation, watch);
	}
	const scope = watch.solutionId === undefined ? '' : ` of solution ${watch.solutionId}`;
	throw new NoSampleError(ctx.getNode(), `No installations${scope} found for this end user`, {
		description:
			'Install a solution for this end user (Albato Solutions → Installation → Create), then fetch a test event again',
	});
}
