/**
 * Run → Get New from node version 5: one execution's sweep by windows (docs/runs.md, "Sweep
 * windows"). Before the first end user is read, the execution takes its window (claims.ts); each
 * end user is a unit, read down to what the window needs (windowRead.ts); once all are read, the
 * execution settles which ticks it returns, per end user, and answers (windowAnswer.ts). Nothing is
 * kept per end user or per run: the store holds the group's ticks for the lookback only.
 */
import { NodeOperationError } from 'n8n-workflow';

import type { BatchPlan, Execution, Unit } from '../../types';
import type { Job } from '../newRunsJob';
import { nameAutomations } from '../sweepAnswer';
import { claimWindow, settleWindow, type WindowClaim } from './claims';
import { LOOKBACK_TICKS, tickOf, tickStart } from './ticks';
import { windowAnswer } from './windowAnswer';
import { readWindow, type WindowRead } from './windowRead';

/** The sweep group and lateness of the execution: one for all its items. */
function groupOf(jobs: Job[], execution: Execution) {
	const [first] = jobs;
	for (const job of jobs)
		for (const [name, label] of [
			['group', 'Options → Sweep Group'],
			['latenessMs', 'Options → Allowed Lateness (Minutes)'],
		] as const)
			if (job.windowed![name] !== first.windowed![name])
				throw new NodeOperationError(
					execution.ctx.getNode(),
					`${label} differs between item ${first.itemIndex} and item ${job.itemIndex}`,
					{
						itemIndex: job.itemIndex,
						description:
							'One execution sweeps one group: give every item the same value (a fan-out gives each batch its own group).',
					},
				);
	return first.windowed!;
}

/**
 * A manual execution (or Preview) reads and writes no store: it shows what a first sweep would,
 * up to now (its window ends after the current tick: no lateness waited for).
 */
function manualClaim(now: number): WindowClaim {
	const end = tickOf(now) + 1;
	const own = Array.from({ length: LOOKBACK_TICKS }, (_, n) => end - LOOKBACK_TICKS + n);
	return { keys: undefined!, end, own, first: true, pending: [], markers: [] };
}

/** The plan of a windowed sweep over `jobs` (one unit per end user). */
export function planWindows(jobs: Job[], execution: Execution): BatchPlan {
	if (jobs.length === 0) return { units: [] };
	const { ctx, client } = execution;
	const manual = ctx.getMode() === 'manual' || execution.preview;
	const { group, latenessMs } = groupOf(jobs, execution);
	const now = Date.now();
	let claiming: Promise<WindowClaim> | undefined;
	const claim = async () =>
		await (claiming ??= manual
			? Promise.resolve(manualClaim(now))
			: claimWindow(ctx, { group, now, latenessMs }));
	const reads: WindowRead[] = [];
	const units = jobs.map(
		(job): Unit => ({
			itemIndexes: [job.itemIndex],
			execute: async () => {
				reads.push(await readWindow(client, job, fromOf(await claim())));
			},
		}),
	);
	const finish = async () => {
		const taken = claiming && (await claiming.catch(() => undefined));
		if (!taken) return; // every item failed with the store's error
		const failed = reads.length < jobs.length;
		const served = reads.map((read) => read.job.key);
		const settled = manual
			? { allowed: () => new Set(taken.own) }
			: await settleWindow(ctx, taken, { served, failed });
		await answerAll(execution, reads, (read) => ({
			allowed: settled.allowed(read.job.key),
			first: taken.first,
			end: taken.end,
		}));
	};
	return { units, finish };
}

/** The oldest moment a sweep may return runs from (undefined: a first sweep). */
function fromOf(claim: WindowClaim): number | undefined {
	if (claim.first) return undefined;
	const oldest = Math.min(claim.end, ...claim.own, ...claim.pending);
	return tickStart(oldest);
}

/** Each end user's answer, its automations named when it has something to return. */
async function answerAll(
	execution: Execution,
	reads: WindowRead[],
	scopeOf: (read: WindowRead) => Parameters<typeof windowAnswer>[1],
): Promise<void> {
	const due = reads.filter(
		(read) => read.job.scope === 'endUser' && windowAnswer(read, scopeOf(read)).length > 0,
	);
	await execution.inFlight(due, async (read) => {
		try {
			await nameAutomations(execution.client, read.job.itemIndex, read.names);
		} catch {
			// Unnamed, as read: the runs are returned all the same.
		}
	});
	for (const read of reads) execution.ended(read.job.itemIndex, windowAnswer(read, scopeOf(read)));
}
