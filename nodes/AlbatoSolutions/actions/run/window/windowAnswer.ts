/**
 * Run → Get New from node version 5: what one end user's sweep returns, given the ticks this
 * execution returns for it (claims.ts): the ended runs whose end falls in those ticks, or with
 * Group Into Incidents the incidents they open and resolve and the reminders due in them. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { dueReminders, incidentEvents } from '../../../../shared/readers/incidents';
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
	/** The ticks whose runs are returned. */
	allowed: ReadonlySet<number>;
	/** The group's first sweep: only the state at `end` (its end tick) is reported. */
	first: boolean;
	end: number;
}

/** One end user's output items. */
export function windowAnswer(read: WindowRead, scope: WindowScope): IDataObject[] {
	const ended = endedRuns(read);
	if (read.job.incidents) return incidentsIn(read, ended, scope);
	const { job } = read;
	const kept = scope.first
		? firstSweepRuns(ended, scope, job.limits.perEndUser)
		: ended.filter(({ end }) => scope.allowed.has(tickOf(end)));
	return kept
		.map(({ item }) => item)
		.filter((item) => job.status === 'any' || item.outcome === job.status);
}

/** A first sweep: the newest runs before its end, up to the per-end-user maximum. */
function firstSweepRuns(ended: Ended[], scope: WindowScope, max: number): Ended[] {
	if (scope.allowed.size === 0) return [];
	const before = ended.filter(({ end }) => end < tickStart(scope.end));
	return before.slice(Math.max(0, before.length - max));
}

/** Incidents of each span of allowed ticks, each decided by the runs that ended before its end. */
function incidentsIn(read: WindowRead, ended: Ended[], scope: WindowScope): IDataObject[] {
	const { job } = read;
	const endUserFields = job.endUserId === undefined ? {} : { endUserId: job.endUserId };
	const historyBefore = (ms: number) => ended.filter(({ end }) => end < ms).map(({ item }) => item);
	if (scope.first) {
		if (scope.allowed.size === 0) return [];
		const history = historyBefore(tickStart(scope.end));
		return incidentEvents({ history, fresh: new Set(), firstSweep: true, endUserFields });
	}
	const items: IDataObject[] = [];
	for (const [from, to] of spansOf(scope.allowed)) {
		const [fromMs, toMs] = [tickStart(from), tickStart(to)];
		const history = historyBefore(toMs);
		const fresh = new Set(ended.filter(({ end }) => end >= fromMs && end < toMs).map((e) => e.id));
		const events = incidentEvents({ history, fresh, firstSweep: false, endUserFields });
		items.push(...events);
		const remindAfterMs = job.incidents!.remindAfterMs;
		const openedNow = new Set(
			events.filter((e) => e.event === 'incidentOpened').map((e) => String(e.bundleId)),
		);
		for (const reminder of dueReminders(history, remindAfterMs, toMs, endUserFields)) {
			const openFor = Number(reminder.item.openForSeconds) * 1000;
			const dueAt = toMs - (openFor % remindAfterMs);
			if (dueAt >= fromMs && !openedNow.has(reminder.bundleId)) items.push(reminder.item);
		}
	}
	return items;
}
