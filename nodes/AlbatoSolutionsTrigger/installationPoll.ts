import type { IDataObject } from 'n8n-workflow';

import { detailOrGone, listInstallations } from '../shared/api/installation';
import { READS_AT_ONCE } from '../shared/transport/concurrency';
import { isObject, solutionIdOf, statusOf } from '../shared/readers/shapes';
import type { AlbatoClient } from '../shared/transport/client';
import { mapLimited } from '../shared/transport/mapLimited';
import {
	type EventKind,
	type KindPoll,
	type PollScope,
	staticDataOf,
	type TriggerStaticData,
} from './eventKind';
import {
	compareIds,
	detectEvents,
	EVENTS,
	type EventItem,
	INSTALLATION_OPTIONS,
	isWatched,
	normalizeId,
	sampleItem,
	seenOf,
	type Snapshot,
	type Watch,
} from './installationEvents';
import { NoSampleError } from './noSample';
import { readSolutionFilter } from './solutionFilter';

/** The installations seen by the last poll, by id; whose they are is kept beside, under `owner`. */
const BASELINE_KEY = 'installations';
const OWNER_KEY = 'owner';

/**
 * Installation Created / Started / Paused / Removed. A poll makes a single list call, detail calls
 * only for what the list lacks (status, solution), then compares with the baseline in static data.
 * The first poll only records the baseline.
 */
export const installationKind: EventKind = {
	options: INSTALLATION_OPTIONS,
	events: EVENTS,
	baselineKey: BASELINE_KEY,
	choose(ctx, chosen) {
		const watch: Watch = {
			events: new Set(EVENTS.filter((event) => chosen.includes(event))),
			solutionId: readSolutionFilter(ctx),
		};
		return {
			poll: async (scope) => await pollInstallations(scope, watch),
			sample: async (scope) => await newest(scope, watch),
		};
	},
};

/** The installation's detail merged over its list item; undefined when it vanished (404). */
const withDetail = async (client: AlbatoClient, item: IDataObject) =>
	await detailOrGone(client, item, { withStatus: false });

/** The listed installations that have an id (the others cannot be followed). */
async function listed(client: AlbatoClient): Promise<IDataObject[]> {
	return (await listInstallations(client)).filter(
		(item) => isObject(item) && item.id !== undefined && item.id !== null,
	);
}

/**
 * One poll against the baseline. Nothing is stored here: `commit` does it, once every chosen kind
 * of event polled without failing, so a failed poll is simply retried.
 */
async function pollInstallations(scope: PollScope, watch: Watch): Promise<KindPoll> {
	const { client, owner } = scope;
	const staticData = staticDataOf(scope);
	// Another end user (credential or End User ID changed): their installations are not news, and the
	// previous user's are not removed. A new baseline is recorded, as on the first poll.
	const stored = staticData[OWNER_KEY];
	const switched = owner !== undefined && stored !== undefined && stored !== owner;
	const previous = switched ? undefined : (staticData[BASELINE_KEY] as Snapshot | undefined);
	const { current, gone } = await currentInstallations(client, previous, watch);
	// Missing from the list is not yet removed (the list may lag or leave items out): only a detail
	// call answering 404 confirms it. Until then the installation stays in the baseline, unreported.
	const pending = previous
		? await confirmRemovals(client, previous, current, gone, watch)
		: new Set<string>();
	const next = nextSnapshot(current, pending, previous);
	const commit = () => storeBaseline(staticData, previous, next, owner);
	if (previous === undefined) return { items: [], commit };
	const settled = Object.fromEntries(Object.entries(previous).filter(([id]) => !pending.has(id)));
	return { items: detectEvents(settled, current, next, watch), commit };
}

/**
 * The listed installations by id, each completed by its detail where the list lacks what the
 * watch needs; `gone` holds those whose detail answered 404 in between.
 */
async function currentInstallations(
	client: AlbatoClient,
	previous: Snapshot | undefined,
	watch: Watch,
): Promise<{ current: Map<string, IDataObject>; gone: Set<string> }> {
	const current = new Map<string, IDataObject>();
	const toDetail: IDataObject[] = [];
	for (const item of await listed(client)) {
		current.set(String(item.id), item);
		if (lacksWhatIsWatched(item, previous, watch)) toDetail.push(item);
	}
	const gone = new Set<string>();
	await mapLimited(toDetail, READS_AT_ONCE, async (item) => {
		const detailed = await withDetail(client, item);
		if (detailed) current.set(String(item.id), detailed);
		else {
			current.delete(String(item.id));
			gone.add(String(item.id));
		}
		return true;
	});
	return { current, gone };
}

/**
 * Whether a listed installation needs its detail: its solution, to match a Solution filter; its
 * status, when Started or Paused is watched, or when Created is and the installation is new.
 * An installation of another solution, known from the list or the baseline, needs nothing.
 */
function lacksWhatIsWatched(
	item: IDataObject,
	previous: Snapshot | undefined,
	watch: Watch,
): boolean {
	const before = previous?.[String(item.id)];
	const solutionId = solutionIdOf(item) ?? before?.solutionId ?? undefined;
	if (solutionId !== undefined && !isWatched(watch, solutionId)) return false;
	if (watch.solutionId !== undefined && solutionId === undefined) return true;
	const isNew = previous !== undefined && !before;
	const wantsStatus =
		watch.events.has('installationStarted') ||
		watch.events.has('installationPaused') ||
		(isNew && watch.events.has('installationCreated'));
	return statusOf(item) === undefined && wantsStatus;
}

/**
 * Asks for the detail of every watched installation the baseline has and the list lacks (unless its
 * detail already answered 404 in this poll). 404: it is gone (left out of `current`, so Removed is
 * reported). Found: the list left it out; it goes into `current` as it is now. Any other failure:
 * it stays pending (returned), to be asked again next poll.
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
	await mapLimited(missing, READS_AT_ONCE, async (id) => {
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

/** The next baseline: what is listed now, and what is still pending removal as it was. */
function nextSnapshot(
	current: Map<string, IDataObject>,
	pending: Set<string>,
	previous: Snapshot | undefined,
): Snapshot {
	const next: Snapshot = {};
	for (const id of [...current.keys(), ...pending].sort(compareIds)) {
		const installation = current.get(id);
		next[id] = installation ? seenOf(installation, previous?.[id]) : previous![id];
	}
	return next;
}

/** Writes only what changed: n8n saves the static data after a poll only when it was changed. */
function storeBaseline(
	staticData: TriggerStaticData,
	previous: Snapshot | undefined,
	next: Snapshot,
	owner: string | undefined,
): void {
	if (JSON.stringify(previous) !== JSON.stringify(next)) staticData[BASELINE_KEY] = next;
	if (owner !== undefined && staticData[OWNER_KEY] !== owner) staticData[OWNER_KEY] = owner;
	else if (owner === undefined && staticData[OWNER_KEY] !== undefined) delete staticData[OWNER_KEY];
}

/** "Fetch Test Event": the newest watched installation (highest id); the baseline is untouched. */
async function newest({ ctx, client }: PollScope, watch: Watch): Promise<EventItem> {
	const byNewest = (await listed(client)).sort((a, b) => compareIds(String(b.id), String(a.id)));
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
