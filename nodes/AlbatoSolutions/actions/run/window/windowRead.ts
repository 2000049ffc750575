/**
 * Run → Get New from node version 5: one end user's runs, read newest first down to what its
 * window needs (docs/runs.md, "Sweep windows"): every run that may have ended since `fromMs`, and
 * with Group Into Incidents the runs that say what each automation's state was before.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Automations, runsOfInstallation } from '../../../../shared/api/automations';
import { listRuns, RUNS_PER_PAGE } from '../../../../shared/api/run';
import { incidentContextRead, openStreaksBounded } from '../../../../shared/readers/incidents';
import { isEnded, runPoint } from '../../../../shared/readers/runs';
import type { AlbatoClient } from '../../../../shared/transport/client';
import type { Job } from '../newRunsJob';
import { markOf } from '../runMemory';
import { endMark } from '../runWindow';

/** How much deeper than Max Remembered Runs per End User a catch-up may read (a week's outage). */
export const WINDOW_READ_DEPTH = 10;

/**
 * A read that reaches back at most SHORT_READ_MS (a steady sweep: its window and the lateness twice,
 * 2 h 15 min every 15 minutes) asks first for pages of SHORT_READ_PER_PAGE runs: about what it
 * needs (two automations at 50 runs a day: 10 runs and each one's run before), not 50. One page
 * that is not enough starts the read again at RUNS_PER_PAGE (one call more, the list read newest
 * first or not).
 */
export const SHORT_READ_MS = 6 * 60 * 60_000;
export const SHORT_READ_PER_PAGE = 25;

export interface WindowRead {
	job: Job;
	/** Every run read, as the service sent it. */
	runs: IDataObject[];
	/** The automations the runs belong to, with their names, as far as known. */
	names: Automations;
}

/**
 * One end user's runs. `fromMs`: the oldest moment the sweep may return runs from (undefined: a
 * first sweep, which reads the newest Max Remembered Runs per End User); `nowMs`: the sweep's now.
 */
export async function readWindow(
	client: AlbatoClient,
	job: Job,
	fromMs: number | undefined,
	nowMs: number,
): Promise<WindowRead> {
	const short = fromMs !== undefined && nowMs - fromMs + job.windowed!.latenessMs <= SHORT_READ_MS;
	// One test per list: it keeps what the list's pages said so far.
	const readAt = async (perPage: number, bundleId?: number | string) => {
		let cut = false;
		const enough = enoughFor(job, fromMs);
		const runs = await listRuns(client, {
			bundleId,
			itemIndex: job.itemIndex,
			perPage,
			// A short read stops after its first page, enough or not (`cut`: read again).
			enough: (read, page) => enough(read, page) || (cut = perPage === SHORT_READ_PER_PAGE),
		});
		return { runs, cut };
	};
	const read = async (bundleId?: number | string) => {
		const first = short ? await readAt(SHORT_READ_PER_PAGE, bundleId) : undefined;
		if (first && !first.cut) return first.runs;
		return (await readAt(RUNS_PER_PAGE, bundleId)).runs;
	};
	if (job.scope === 'installation') {
		const { runs, automations } = await runsOfInstallation(
			client,
			job.installationId!,
			read,
			job.itemIndex,
		);
		return { job, runs, names: automations };
	}
	const runs = await read(job.scope === 'bundle' ? job.bundleId : undefined);
	return { job, runs, names: new Map() };
}

/**
 * When a read may stop: only while the list reads newest first (otherwise it is read whole, as far
 * as the service's pages go), once its oldest run started before `fromMs` less the lateness (a run
 * ends within the lateness of its start: the runs beyond ended before the window), and, with
 * incidents, once each automation's state before the window is known. Each page is looked at once
 * (a week's catch-up reads 14 pages a customer); only the incidents' test reads all, on the pages
 * past the window.
 */
function enoughFor(job: Job, fromMs: number | undefined) {
	const depth = job.limits.perEndUser * (fromMs === undefined ? 1 : WINDOW_READ_DEPTH);
	const read = { ended: 0, count: 0, last: Number.NaN, unordered: false };
	return (runs: IDataObject[], page: IDataObject[]): boolean => {
		for (const run of page) {
			if (isEnded(run)) read.ended++;
			const start = markOf(run, job.offset)[1];
			if (Number.isNaN(start) || (read.count > 0 && start > read.last)) read.unordered = true;
			read.last = start;
			read.count++;
		}
		if (read.unordered) return false; // another order: read whole, or new runs would be missed
		if (read.ended >= depth) return true;
		if (fromMs === undefined) return false;
		if (read.count === 0 || read.last >= fromMs - job.windowed!.latenessMs) return false;
		if (!job.incidents) return true;
		const point = (run: IDataObject) => runPoint(run, job.offset);
		const isNew = (run: IDataObject) => isEnded(run) && endMark(run, job.offset)[1] >= fromMs;
		if (!incidentContextRead(runs, point, isNew)) return false;
		return job.incidents.remindAfterMs <= 0 || openStreaksBounded(runs.map(point));
	};
}
