/**
 * Run → Get New: what one customer's sweep returns. The gate (gate.ts) says which of the sweep's
 * keys are this execution's: its new runs and, with Group Into Incidents, its `known` record and
 * the reminders due; the window (runWindow.ts) says how far below the runs handled before a run may
 * still be returned, and which records the store no longer keeps.
 */
import type { IDataObject } from 'n8n-workflow';

import { automationNames, automationOf, type Automations } from '../../../shared/api/automations';
import { dueReminders, incidentEvents, staleReminders } from '../../../shared/readers/incidents';
import { knownGateKey, reminderGateKey, runGateKey } from '../../../shared/readers/runKeys';
import type { AlbatoClient } from '../../../shared/transport/client';
import { isEnded, runItem, runPoint } from '../../../shared/readers/runs';
import type { Read } from './endUserRead';
import type { Job } from './newRunsJob';
import { isKnown, markOf } from './runMemory';
import { newestFirst, type RunWindow, runWindow } from './runWindow';

/**
 * A customer's watched runs: the ended runs its sweep records (a run its Status filter leaves out is
 * never returned, so the store need not hold it; with incidents every ended run, each counts in an
 * incident), each once, newest first.
 */
export function watchedOf(read: Read): IDataObject[] {
	const { job } = read;
	const watched = read.runs.filter(
		(run) =>
			isEnded(run) &&
			(job.incidents !== undefined ||
				job.status === 'any' ||
				read.items.get(run)?.outcome === job.status),
	);
	return newestFirst(watched, job.offset);
}

/**
 * A customer's gate keys besides its runs: its `known` record when it has no memory (a customer
 * without it, and without runs handled before, is on its first sweep; with it, a read that meets no
 * run handled before is a long gap, read deeper: gateRounds.ts) or with incidents; and the reminders
 * due.
 */
export function endUserKeys(read: Read, now: number): string[] {
	const { job } = read;
	const keys = job.incidents || read.previous === undefined ? [knownGateKey(job.key)] : [];
	if (!job.incidents) return keys;
	const history = read.runs.map((run) => read.items.get(run)!);
	for (const { key } of dueReminders(history, job.incidents.remindAfterMs, now, {}))
		keys.push(reminderGateKey(job.key, key));
	return keys;
}

/** Whether a run was handled before this sweep: named by its memory, or held by the store. */
export const handledBefore =
	(read: Read, heldBefore: ReadonlySet<string>) =>
	(run: IDataObject): boolean =>
		isKnown(read.previous, markOf(run, read.job.offset)) ||
		heldBefore.has(runGateKey(read.job.key, run.id));

/** The customer's window (runWindow.ts). */
export const windowOf = (read: Read, heldBefore: ReadonlySet<string>): RunWindow =>
	runWindow(watchedOf(read), handledBefore(read, heldBefore));

/**
 * The records this sweep removes for a customer: its watched runs past KEPT_RUNS, once new runs have
 * moved them down (with the newest run handled before on top, nothing moved); with reminders, those
 * no sweep asks for again, once something changed (a new run, or a reminder this sweep's).
 */
export function forgottenKeys(
	read: Read,
	window: RunWindow,
	{ passed, now }: { passed: ReadonlySet<string>; now: number },
): string[] {
	const { job } = read;
	const moved = window.frontier !== 0;
	// With no frontier (a first sweep, a catch-up that met none), only the records it made.
	const keys = (moved ? window.forgotten : [])
		.map((run) => runGateKey(job.key, run.id))
		.filter((key) => window.frontier >= 0 || passed.has(key));
	if (!job.incidents?.remindAfterMs) return keys;
	const history = read.runs.map((run) => read.items.get(run)!);
	const due = dueReminders(history, job.incidents.remindAfterMs, now, {});
	if (!moved && !due.some(({ key }) => passed.has(reminderGateKey(job.key, key)))) return keys;
	for (const key of staleReminders(history, job.incidents.remindAfterMs, now))
		keys.push(reminderGateKey(job.key, key));
	return keys;
}

/** Every run returnable: the superset the names are looked up for during the gate's wait. */
const ANY_RUN: Pick<RunWindow, 'frontier' | 'returnable'> = {
	frontier: -1,
	returnable: () => true,
};

/** What one customer's sweep returns, the gate having said which keys are this execution's. */
export function answer(
	read: Read,
	passed: ReadonlySet<string>,
	now: number,
	window: Pick<RunWindow, 'frontier' | 'returnable'> = ANY_RUN,
): IDataObject[] {
	const { job } = read;
	const named = (run: IDataObject) => withNames(job, run, read.names);
	const owned = read.fresh
		.filter((run) => passed.has(runGateKey(job.key, run.id)) && window.returnable(run))
		.map(named);
	if (!job.incidents)
		return owned.filter((run) => job.status === 'any' || run.outcome === job.status);
	const endUserFields = job.endUserId === undefined ? {} : { endUserId: job.endUserId };
	const history = read.runs.map(named);
	const items = incidentEvents({
		history,
		fresh: new Set(owned.map((run) => String(run.id))),
		// No memory of this customer, no run handled before, and its `known` record this execution's.
		firstSweep:
			read.previous === undefined && window.frontier === -1 && passed.has(knownGateKey(job.key)),
		endUserFields,
	});
	const openedNow = new Set(
		items.filter((item) => item.event === 'incidentOpened').map((item) => String(item.bundleId)),
	);
	for (const reminder of dueReminders(history, job.incidents.remindAfterMs, now, endUserFields))
		if (passed.has(reminderGateKey(job.key, reminder.key)) && !openedNow.has(reminder.bundleId))
			items.push(reminder.item);
	return items;
}

/**
 * A run as an output item with its installation, automation and step names (as far as known): the
 * shape Run → Get Many and the trigger give.
 */
export function withNames(job: Job, run: IDataObject, names: Automations): IDataObject {
	const found = automationOf(names, run.bundleId);
	const item = runItem(run, job.offset, found?.stepTitles);
	return {
		...(job.endUserId === undefined ? {} : { endUserId: job.endUserId }),
		installationId: found?.installationId ?? job.installationId ?? null,
		installationTitle: found?.installationTitle ?? null,
		bundleTitle: found?.bundleTitle ?? null,
		...item,
	};
}

/**
 * withNames' fields that the incident rules read (readers/runs.ts runPoint, the names, and any of
 * the run's own fields that withNames lets stand), for a run that is only a point on a timeline.
 */
export function incidentPoint(job: Job, run: IDataObject, names: Automations): IDataObject {
	const found = automationOf(names, run.bundleId);
	const own = (key: string, fallback: IDataObject[string]) => (key in run ? run[key] : fallback);
	return {
		...(job.endUserId === undefined ? {} : { endUserId: job.endUserId }),
		installationId: own('installationId', found?.installationId ?? job.installationId ?? null),
		installationTitle: own('installationTitle', found?.installationTitle ?? null),
		bundleTitle: own('bundleTitle', found?.bundleTitle ?? null),
		...runPoint(run, job.offset, found?.stepTitles),
	};
}

/**
 * Names every automation of the end user into `names`, only when there are new runs: a failure
 * leaves the names as they were (the caller weighs it).
 */
export async function nameAutomations(
	client: AlbatoClient,
	itemIndex: number,
	names: Automations,
): Promise<void> {
	for (const [id, automation] of await automationNames(client, itemIndex))
		names.set(id, automation);
}
