/**
 * Run → Get New: what one customer's sweep returns. The gate (gate.ts) says which of the sweep's
 * keys are this execution's: its new runs and, with Group Into Incidents, its first-sweep marks and
 * the reminders due.
 */
import type { IDataObject } from 'n8n-workflow';

import { automationNames, automationOf, type Automations } from '../../../shared/api/automations';
import { dueReminders, incidentEvents } from '../../../shared/readers/incidents';
import { reminderGateKey, runGateKey, sweptGateKey } from '../../../shared/readers/runKeys';
import type { AlbatoClient } from '../../../shared/transport/client';
import { runItem } from '../../../shared/readers/runs';
import type { Read } from './customerRead';
import type { Job } from './newRunsJob';

/**
 * A customer's gate keys: its new runs that this sweep can return (a run its Status filter leaves
 * out is never returned, so the store need not hold it); with incidents every new run (each counts
 * in an incident), its first-sweep marks (one a week: a customer with neither this week's nor last
 * week's is on its first sweep) and the reminders due.
 */
export function gateKeys(read: Read, now: number): string[] {
	const { job } = read;
	if (!job.incidents)
		return read.fresh
			.filter((run) => job.status === 'any' || read.items.get(run)?.outcome === job.status)
			.map((run) => runGateKey(job.key, run.id));
	const keys = read.fresh.map((run) => runGateKey(job.key, run.id));
	keys.push(...sweptMarks(job, now));
	const history = read.runs.map((run) => read.items.get(run)!);
	for (const { key } of dueReminders(history, job.incidents.remindAfterMs, now, {}))
		keys.push(reminderGateKey(job.key, key));
	return keys;
}

const WEEK_MS = 7 * 86_400_000;
const sweptMarks = (job: Job, now: number) =>
	[0, 1].map((weeks) => sweptGateKey(job.key, Math.floor(now / WEEK_MS) - weeks));

/** What one customer's sweep returns, the gate having said which keys are this execution's. */
export function answer(read: Read, passed: ReadonlySet<string>, now: number): IDataObject[] {
	const { job } = read;
	const named = (run: IDataObject) => withNames(job, run, read.names);
	const owned = read.fresh.filter((run) => passed.has(runGateKey(job.key, run.id))).map(named);
	if (!job.incidents)
		return owned.filter((run) => job.status === 'any' || run.outcome === job.status);
	const customer = job.endUserId === undefined ? {} : { endUserId: job.endUserId };
	const history = read.runs.map(named);
	const items = incidentEvents({
		history,
		fresh: new Set(owned.map((run) => String(run.id))),
		// No memory of this customer, and none of its marks recorded before this execution's.
		firstSweep:
			read.previous === undefined && sweptMarks(job, now).every((mark) => passed.has(mark)),
		customer,
	});
	const openedNow = new Set(
		items.filter((item) => item.event === 'incidentOpened').map((item) => String(item.bundleId)),
	);
	for (const reminder of dueReminders(history, job.incidents.remindAfterMs, now, customer))
		if (passed.has(reminderGateKey(job.key, reminder.key)) && !openedNow.has(reminder.bundleId))
			items.push(reminder.item);
	return items;
}

/**
 * A run as an output item with its installation, automation and step names (as far as known): the
 * shape Run → Get Many and the trigger give.
 */
function withNames(job: Job, run: IDataObject, names: Automations): IDataObject {
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
