/** Run → Get New: one customer's runs, read in as few pages as its memory allows. */
import type { IDataObject } from 'n8n-workflow';

import { type Automations, runsOfInstallation } from '../../../shared/api/automations';
import { listRuns, RUNS_PER_PAGE } from '../../../shared/api/run';
import { incidentContextRead } from '../../../shared/readers/incidents';
import { runItem } from '../../../shared/readers/runs';
import type { AlbatoClient } from '../../../shared/transport/client';
import type { Job } from './newRunsJob';
import { type EndUserMemory, enoughRead, isKnown, markOf, sweepEndUser } from './runMemory';

/** One customer's read, compared with its memory. */
export interface Read {
	job: Job;
	/** The memory the read started from (undefined: the customer's first sweep, or a manual one). */
	previous?: EndUserMemory;
	/** Every run read, as the service sent it (incidents are decided from all of them). */
	runs: IDataObject[];
	/** The ended runs not handled before (by the memory). */
	fresh: IDataObject[];
	/** Each run read as an output item, without names. */
	items: Map<IDataObject, IDataObject>;
	next: EndUserMemory;
	/** The automations the runs belong to, with their names, as far as known. */
	names: Automations;
	/** Whether the whole list was read (not cut short by the memory or the read's depth). */
	complete: boolean;
}

/**
 * How much deeper a catch-up reads (gateRounds.ts): a customer whose read met no run handled before,
 * though it was swept before, is read again down to this many times Max Remembered Runs per
 * Customer.
 */
export const CATCH_UP_DEPTH = 10;

/** Reads the customer again, CATCH_UP_DEPTH times deeper, into `read` (its job kept). */
export async function readDeeper(client: AlbatoClient, read: Read): Promise<void> {
	const { job } = read;
	const limits = { ...job.limits, perEndUser: job.limits.perEndUser * CATCH_UP_DEPTH };
	const deeper = await readEndUser(client, { ...job, limits }, read.previous);
	Object.assign(read, { ...deeper, job });
}

/** One customer: its runs (as few pages as the memory allows), compared with its memory. */
export async function readEndUser(
	client: AlbatoClient,
	job: Job,
	memory: EndUserMemory | undefined,
): Promise<Read> {
	let complete = true;
	const contextRead = incidentContext(job, memory);
	const read = async (bundleId?: number | string) =>
		await listRuns(client, {
			bundleId,
			itemIndex: job.itemIndex,
			perPage: RUNS_PER_PAGE,
			enough: (runs, page) => {
				const enough = enoughRead(memory, runs, page, job, contextRead);
				if (enough) complete = false;
				return enough;
			},
		});
	let names: Automations = new Map();
	let runs: IDataObject[];
	if (job.scope === 'installation')
		({ runs, automations: names } = await runsOfInstallation(
			client,
			job.installationId!,
			read,
			job.itemIndex,
		));
	else runs = await read(job.scope === 'bundle' ? job.bundleId : undefined);
	const { fresh, next } = sweepEndUser(memory, runs, job, Date.now(), complete);
	const items = new Map(runs.map((run) => [run, runItem(run, job.offset)]));
	return { job, previous: memory, runs, fresh, items, next, names, complete };
}

/**
 * When the runs read so far are enough for incidents: the runs before the new ones; with
 * reminders, every automation's current streak (read up to Max Remembered Runs per Customer).
 */
function incidentContext(
	job: Job,
	memory: EndUserMemory | undefined,
): ((runs: IDataObject[]) => boolean) | undefined {
	if (!job.incidents) return undefined;
	if (job.incidents.remindAfterMs > 0) return () => false;
	return (runs) =>
		incidentContextRead(
			runs,
			(run) => runItem(run, job.offset),
			(run) => !isKnown(memory, markOf(run, job.offset)),
		);
}
