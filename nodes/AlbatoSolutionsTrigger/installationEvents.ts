import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { ACTIVE, idOf, PAUSED, sameId, solutionIdOf, statusOf } from '../shared/readers/shapes';

/** The events in the Events list, in the order they are emitted for one installation. */
export const INSTALLATION_OPTIONS = [
	{
		name: 'Installation Created',
		value: 'installationCreated',
		description: 'A solution was installed (a new installation appeared)',
	},
	{
		name: 'Installation Started',
		value: 'installationStarted',
		description: 'An installation went from paused to active, or was first seen already active',
	},
	{
		name: 'Installation Paused',
		value: 'installationPaused',
		description: 'An installation went from active to paused',
	},
	{
		name: 'Installation Removed',
		value: 'installationRemoved',
		description: 'An installation is no longer listed',
	},
] as const satisfies readonly INodePropertyOptions[];

export type InstallationEvent = (typeof INSTALLATION_OPTIONS)[number]['value'];
export const EVENTS: readonly InstallationEvent[] = INSTALLATION_OPTIONS.map(
	(option) => option.value,
);

/** What the trigger remembers of one installation between polls (in the workflow's static data). */
interface Seen {
	/** 1 active, 0 paused; null when the poll did not learn it (then no start/pause from it). */
	status: number | null;
	title: string | null;
	solutionId: string | number | null;
}

/** Installations seen by the last poll, by id; absent until the first poll recorded them. */
export type Snapshot = Record<string, Seen>;

/** One output item. */
export type EventItem = { event: InstallationEvent } & EventFields;

type EventFields = {
	installationId: string | number;
	solutionId: string | number | null;
	title: string | null;
	/** Status now; null for Installation Removed. */
	status: number | null;
	/** Status at the previous poll; null for Installation Created (it did not exist). */
	previousStatus: number | null;
	/** The installation as the service returned it; for Removed, the last snapshot kept. */
	installation: IDataObject;
	/**
	 * Only on "Fetch Test Event": a live installation shaped as the event, not a real change (a
	 * Removed sample is still installed); with a note saying so.
	 */
	sample?: true;
	sampleNote?: string;
};

export interface Watch {
	events: Set<InstallationEvent>;
	/** Only installations of this solution; undefined for all. */
	solutionId?: string;
}

/** Ids as numbers when they are numeric (the service may send "5001"), otherwise as given. */
export function normalizeId(value: unknown): string | number {
	return idOf(value) ?? String(value).trim();
}

export function seenOf(installation: IDataObject, before?: Seen): Seen {
	const solutionId = solutionIdOf(installation);
	return {
		status: statusOf(installation) ?? null,
		title: typeof installation.title === 'string' ? installation.title : (before?.title ?? null),
		solutionId: solutionId === undefined ? (before?.solutionId ?? null) : normalizeId(solutionId),
	};
}

/**
 * Whether an installation belonging to `solutionId` is watched; an unknown solution is watched only
 * without a filter.
 */
export function isWatched(watch: Watch, solutionId: string | number | null | undefined): boolean {
	return watch.solutionId === undefined || sameId(solutionId, watch.solutionId);
}

/** Numeric ids in numeric order, others after them as text. */
export function compareIds(a: string, b: string): number {
	const [x, y] = [normalizeId(a), normalizeId(b)];
	if (typeof x === 'number' && typeof y === 'number') return x - y;
	if (typeof x === 'number') return -1;
	if (typeof y === 'number') return 1;
	return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The changes between two polls, pure: what was created, started, paused or removed, ordered by
 * installation id, then in the order of EVENTS. `current` maps each id the service listed now to
 * the installation (detail merged in where it was fetched).
 */
export function detectEvents(
	previous: Snapshot,
	current: Map<string, IDataObject>,
	next: Snapshot,
	watch: Watch,
): EventItem[] {
	const found: Array<{ id: string; item: EventItem }> = [];
	for (const [id, installation] of current) {
		if (!isWatched(watch, next[id].solutionId)) continue;
		for (const item of changesOf(id, installation, previous[id], next[id]))
			found.push({ id, item });
	}
	for (const [id, before] of Object.entries(previous)) {
		if (!current.has(id) && isWatched(watch, before.solutionId))
			found.push({ id, item: removedItem(id, before) });
	}
	return found
		.filter(({ item }) => watch.events.has(item.event))
		.sort(
			(a, b) =>
				compareIds(a.id, b.id) || EVENTS.indexOf(a.item.event) - EVENTS.indexOf(b.item.event),
		)
		.map(({ item }) => item);
}

/** What happened to a listed installation since the last poll (`before` undefined: it is new). */
function changesOf(
	id: string,
	installation: IDataObject,
	before: Seen | undefined,
	now: Seen,
): EventItem[] {
	const item = (event: InstallationEvent, previousStatus: number | null): EventItem => ({
		event,
		installationId: normalizeId(installation.id ?? id),
		solutionId: now.solutionId,
		title: now.title,
		status: now.status,
		previousStatus,
		installation,
	});
	if (!before) {
		// Installed and already running when first seen: it was also started.
		const started = now.status === ACTIVE ? [item('installationStarted', null)] : [];
		return [item('installationCreated', null), ...started];
	}
	if (before.status === null || now.status === null || before.status === now.status) return [];
	if (now.status === ACTIVE) return [item('installationStarted', before.status)];
	if (now.status === PAUSED) return [item('installationPaused', before.status)];
	return [];
}

/** Installation Removed, from the last snapshot the baseline kept. */
function removedItem(id: string, before: Seen): EventItem {
	return {
		event: 'installationRemoved',
		installationId: normalizeId(id),
		solutionId: before.solutionId,
		title: before.title,
		status: null,
		previousStatus: before.status,
		installation: {
			id: normalizeId(id),
			title: before.title,
			status: before.status,
			solutionId: before.solutionId,
		},
	};
}

/**
 * The one output item of "Fetch Test Event": a real installation shaped as the event it best
 * matches among those chosen (Created when chosen; else Started/Paused by its status; else the
 * first).
 */
export function sampleItem(installation: IDataObject, watch: Watch): EventItem {
	const seen = seenOf(installation);
	const chosen = EVENTS.filter((event) => watch.events.has(event));
	const event =
		chosen.find((candidate) => candidate === 'installationCreated') ??
		chosen.find(
			(candidate) =>
				(candidate === 'installationStarted' && seen.status === ACTIVE) ||
				(candidate === 'installationPaused' && seen.status === PAUSED),
		) ??
		chosen[0] ??
		'installationCreated';
	return {
		event,
		installationId: normalizeId(installation.id),
		solutionId: seen.solutionId,
		title: seen.title,
		status: event === 'installationRemoved' ? null : seen.status,
		previousStatus: event === 'installationRemoved' ? seen.status : null,
		installation,
		sample: true,
		sampleNote:
			event === 'installationRemoved'
				? 'A sample: this installation is still installed, shaped as Installation Removed so the next nodes can be built. A real event comes from an active workflow.'
				: 'A sample: a live installation shaped as this event, not a change the trigger saw. Real events come from an active workflow.',
	};
}
