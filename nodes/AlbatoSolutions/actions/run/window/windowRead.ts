/**
 * Run → Get New from node version 5: one end user's runs, read newest first down to what its
 * window needs (docs/runs.md, "Sweep windows"): every run that may have ended since `fromMs`, and
 * with Group Into Incidents the runs that say what each automation's state was before.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Automations, runsOfInstallation } from '../../../../shared/api/automations';
import { listRuns, RUNS_PER_PAGE } from '../../../../shared/api/run';
import { incidentContextRead, openStreaksBounded } from '../../../../shared/readers/incidents';
import { isEnded, runItem } from '../../../../shared/readers/runs';
import type { AlbatoClient } from '../../../../shared/transport/client';
import type { Job } from '../newRunsJob';
import { markOf } from '../runMemory';
import { endMark } from '../runWindow';

/** How much deeper than Max Remembered Runs per End User a catch-up may read (a week's outage). */
export const WINDOW_READ_DEPTH = 10;

export interface WindowRead {
	job: Job;
	/** Every run read, as the service sent it. */
	runs: IDataObject[];
	/** The automations the runs belong to, with their names, as far as known. */
	names: Automations;
}

/**
 * One end user's runs. `fromMs`: the oldest moment the sweep may return runs from (undefined: a
 * first sweep, which reads the newest Max Remembered Runs per End User).
 */
export async function readWindow(
	client: AlbatoClient,
	job: Job,
	fromMs: number | undefined,
): Promise<WindowRead> {
	const enough = enoughFor(job, fromMs);
	const read = async (bundleId?: number | string) =>
		await listRuns(client, { bundleId, itemIndex: job.itemIndex, perPage: RUNS_PER_PAGE, enough });
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
 * When a read may stop: only while the list reads newest first (otherwise it is read whole, up to
 * the depth), once its oldest run started before `fromMs` less the lateness (a run ends within the
 * lateness of its start: the runs beyond ended before the window), and, with incidents, once each
 * automation's state before the window is known.
 */
function enoughFor(job: Job, fromMs: number | undefined) {
	const depth = job.limits.perEndUser * (fromMs === undefined ? 1 : WINDOW_READ_DEPTH);
	return (runs: IDataObject[]): boolean => {
		if (runs.filter(isEnded).length >= depth) return true;
		const starts = runs.map((run) => markOf(run, job.offset)[1]);
		for (let i = 0; i < starts.length; i++)
			if (Number.isNaN(starts[i]) || (i > 0 && starts[i] > starts[i - 1])) return false;
		if (fromMs === undefined) return false;
		if (starts.length === 0 || starts[starts.length - 1] >= fromMs - job.windowed!.latenessMs)
			return false;
		if (!job.incidents) return true;
		const point = (run: IDataObject) => runItem(run, job.offset);
		const isNew = (run: IDataObject) => isEnded(run) && endMark(run, job.offset)[1] >= fromMs;
		if (!incidentContextRead(runs, point, isNew)) return false;
		return job.incidents.remindAfterMs <= 0 || openStreaksBounded(runs.map(point));
	};
}
