/**
 * Run → Get New from node version 5: what one end user's sweep may return, computed as soon as it
 * is read, each item with the tick it belongs to: the ended runs whose end falls in the ticks the
 * execution may return (claims.ts), or with Group Into Incidents the incidents they open and
 * resolve and the reminders due in them. Once the execution has settled which of those ticks it
 * returns for the end user, `itemsIn` keeps theirs. So a sweep holds each end user's answer, not
 * its runs, until it settles. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { dueReminders, incidentEventsAt } from '../../../../shared/readers/incidents';
import { isEnded } from '../../../../shared/readers/runs';
import { newerFirst } from '../runMemory';
import { endMark } from '../runWindow';
import { withNames } from '../sweepAnswer';
import { spansOf, tickOf, tickStart } from './ticks';
import type { WindowRead } from './windowRead';

/** An ended run with its end (epoch ms) and output item. */
interface Ended {
	run: IDataObject;
	end: number;
	id: string;
	item: IDataObject;
}

/** The ended runs read, each once, oldest first by end; runs whose dates cannot be read left out. */
function endedRuns(read: WindowRead): Ended[] {
	const { job } = read;
	const byId = new Map<string, Ended>();
	for (const run of read.runs) {
		if (!isEnded(run)) continue;
		const [id, end] = endMark(run, job.offset);
		if (id === '' || Number.isNaN(end) || byId.has(id)) continue;
		byId.set(id, { run, end, id, item: withNames(job, run, read.names) });
	}
	return [...byId.values()].sort((a, b) => newerFirst([b.id, b.end], [a.id, a.end]));
}

export interface WindowScope {
	/** The ticks whose runs may be returned (the execution's own and those it takes over). */
	allowed: ReadonlySet<number>;
	/**
	 * The spans of `allowed` each decided on its own, as successive sweeps would (default: its
	 * spans): the execution's own ticks apart from those it takes over, so that a settle that keeps
	 * one and not the other keeps what a sweep of that one alone would give.
	 */
	spans?: Array<[number, number]>;
	/** The group's first sweep: only the state at `end` (its end tick) is reported. */
	first: boolean;
	end: number;
}

/**
 * An output item and the tick it belongs to; a first sweep's state belongs to none (undefined): it
 * is returned when the execution returns any tick.
 */
export interface TickedItem {
	tick: number | undefined;
	item: IDataObject;
}

/** One end user's output items, each with its tick. */
export function windowItems(read: WindowRead, scope: WindowScope): TickedItem[] {
	const ended = endedRuns(read);
	if (read.job.incidents) return incidentsIn(read, ended, scope);
	const { job } = read;
	const kept: TickedItem[] = scope.first
		? firstSweepRuns(ended, scope, job.limits.perEndUser).map(({ item }) => ({
				tick: undefined,
				item,
			}))
		: ended
				.filter(({ end }) => scope.allowed.has(tickOf(end)))
				.map(({ end, item }) => ({ tick: tickOf(end), item }));
	return kept.filter(({ item }) => job.status === 'any' || item.outcome === job.status);
}

/** The items of the ticks returned (`allowed`, settled), in their order. */
export function itemsIn(ticked: TickedItem[], allowed: ReadonlySet<number>): IDataObject[] {
	return ticked
		.filter(({ tick }) => (tick === undefined ? allowed.size > 0 : allowed.has(tick)))
		.map(({ item }) => item);
}

/** A first sweep: the newest runs before its end, up to the per-end-user maximum. */
function firstSweepRuns(ended: Ended[], scope: WindowScope, max: number): Ended[] {
	if (scope.allowed.size === 0) return [];
	const before = ended.filter(({ end }) => end < tickStart(scope.end));
	return before.slice(Math.max(0, before.length - max));
}

/**
 * Incidents of each span of allowed ticks, each decided by the runs that ended before its end. An
 * item belongs to the tick of the run that decided it (a reminder: of when it fell due), within
 * its span. A settle keeps whole spans (claims.ts); were one cut, the part kept would get the
 * events the whole span's runs decide there.
 */
function incidentsIn(read: WindowRead, ended: Ended[], scope: WindowScope): TickedItem[] {
	const { job } = read;
	const endUserFields = job.endUserId === undefined ? {} : { endUserId: job.endUserId };
	const historyBefore = (ms: number) => ended.filter(({ end }) => end < ms).map(({ item }) => item);
	if (scope.first) {
		if (scope.allowed.size === 0) return [];
		const history = historyBefore(tickStart(scope.end));
		return incidentEventsAt({ history, fresh: new Set(), firstSweep: true, endUserFields }).map(
			({ item }) => ({ tick: undefined, item }),
		);
	}
	const items: TickedItem[] = [];
	for (const [from, to] of scope.spans ?? spansOf(scope.allowed)) {
		const [fromMs, toMs] = [tickStart(from), tickStart(to)];
		const within = (ms: number) =>
			Number.isNaN(ms) ? from : Math.min(to - 1, Math.max(from, tickOf(ms)));
		const history = historyBefore(toMs);
		const fresh = new Set(ended.filter(({ end }) => end >= fromMs && end < toMs).map((e) => e.id));
		const events = incidentEventsAt({ history, fresh, firstSweep: false, endUserFields });
		items.push(...events.map(({ at, item }) => ({ tick: within(at), item })));
		const remindAfterMs = job.incidents!.remindAfterMs;
		const openedNow = new Set(
			events
				.filter(({ item }) => item.event === 'incidentOpened')
				.map(({ item }) => String(item.bundleId)),
		);
		for (const reminder of dueReminders(history, remindAfterMs, toMs, endUserFields)) {
			const openFor = Number(reminder.item.openForSeconds) * 1000;
			const dueAt = toMs - (openFor % remindAfterMs);
			if (dueAt >= fromMs && !openedNow.has(reminder.bundleId))
				items.push({ tick: within(dueAt), item: reminder.item });
		}
	}
	return items;
}
