/**
 * Run → Get New from node version 5: one execution's sweep by windows (docs/runs.md, "Sweep
 * windows"). Before the first end user is read, the execution takes its window (claims.ts); each
 * end user is a unit, read down to what the window needs (windowRead.ts) and answered at once, each
 * item with its tick (windowAnswer.ts); once all are read, the execution settles which ticks it
 * returns, per end user, and reports those items. Nothing is kept per end user or per run: the
 * store holds the group's ticks for the lookback only, and the execution each end user's answer
 * (not its runs) until it settles.
 */
import { NodeOperationError } from 'n8n-workflow';

import type { BatchPlan, Execution, Unit } from '../../types';
import type { Job } from '../newRunsJob';
import { nameAutomations } from '../sweepAnswer';
import { claimWindow, settleWindow, type WindowClaim } from './claims';
import { LOOKBACK_TICKS, spansOf, tickOf, tickStart } from './ticks';
import { itemsIn, type TickedItem, windowItems, type WindowScope } from './windowAnswer';
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

/** One end user's answer, each item with its tick, until the execution settles. */
interface Answer {
	job: Job;
	ticked: TickedItem[];
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
	const answers: Answer[] = [];
	const units = jobs.map(
		(job): Unit => ({
			itemIndexes: [job.itemIndex],
			execute: async () => {
				const taken = await claim();
				const read = await readWindow(client, job, fromOf(taken), now);
				answers.push({ job, ticked: await answerOf(execution, read, candidates(taken)) });
			},
		}),
	);
	const finish = async () => {
		const taken = claiming && (await claiming.catch(() => undefined));
		if (!taken) return; // every item failed with the store's error
		const failed = answers.length < jobs.length;
		const served = answers.map((answer) => answer.job.key);
		const settled = manual
			? { allowed: () => new Set(taken.own) }
			: await settleWindow(ctx, taken, { served, failed });
		for (const { job, ticked } of answers)
			execution.ended(job.itemIndex, itemsIn(ticked, settled.allowed(job.key)));
	};
	return { units, finish };
}

/** The oldest moment a sweep may return runs from (undefined: a first sweep). */
function fromOf(claim: WindowClaim): number | undefined {
	if (claim.first) return undefined;
	const oldest = Math.min(claim.end, ...claim.own, ...claim.pending);
	return tickStart(oldest);
}

/** The ticks an execution may return: its own and those it takes over (settled at its end). */
const candidates = (claim: WindowClaim): WindowScope => ({
	allowed: new Set([...claim.own, ...claim.pending]),
	spans: [...spansOf(claim.own), ...spansOf(claim.pending)].sort((a, b) => a[0] - b[0]),
	first: claim.first,
	end: claim.end,
});

/** An end user's items, its automations named first when it has something to return. */
async function answerOf(
	execution: Execution,
	read: WindowRead,
	scope: WindowScope,
): Promise<TickedItem[]> {
	const ticked = windowItems(read, scope);
	if (read.job.scope !== 'endUser' || ticked.length === 0) return ticked;
	try {
		await nameAutomations(execution.client, read.job.itemIndex, read.names);
	} catch {
		return ticked; // unnamed, as read: the runs are returned all the same
	}
	return windowItems(read, scope);
}
