import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { shownBefore, shownFrom, sweepsByWindows } from '../../../shared/descriptions/versions';
import {
	bundleSelect,
	installationLocator,
	optionsCollection,
} from '../../../shared/descriptions/common.descriptions';
import type { AlbatoClient } from '../../../shared/transport/client';
import type { BatchPlan, Execution, Unit } from '../types';
import { type Read, readEndUser, readDeeper } from './endUserRead';
import { forgetRecords, passGate, reassertGate } from './gate';
import { type Job, readJob } from './newRunsJob';
import { boundMemory, memoryOf } from './runMemory';
import { dateOffsetOption, runStatusFilter } from './runFilters';
import { allKeys, gateRounds } from './gateRounds';
import { answer, forgottenKeys, nameAutomations, windowOf } from './sweepAnswer';
import { MAX_RUNS_PER_CUSTOMER, MAX_RUNS_TOTAL, WINDOW_OPTIONS } from './getNewOptions';
import { planWindows } from './window/windowSweep';

export const option = {
	name: 'Get New',
	action: 'Get new runs',
	description:
		'Runs that ended since this node last returned runs, each once across executions, per end user',
};

export const effect = 'read';

/** One customer item, read and checked before anything is sent. */
export function read(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number): Job {
	return readJob(this, client, itemIndex);
}

/** Where the memory lives in the workflow's static data (this node's part of it). */
export const MEMORY_KEY = 'getNewRuns';

export const description: INodeProperties[] = [
	...shownBefore(5, [
		{
			displayName:
				'One input item per customer; one output item per run, or per incident. Each ended run is returned once across executions. Manual executions in the editor, and Request Options → Preview, neither read nor change this memory: they show what a first sweep would return.',
			name: 'getNewNotice',
			type: 'notice',
			default: '',
		},
	]),
	...shownFrom(5, [
		{
			displayName:
				'One input item per customer; one output item per run, or per incident. Each ended run is returned once across executions, once its Allowed Lateness has passed. A fan-out that sweeps its customers in several executions at once gives each batch its own Options → Sweep Group. Manual executions and Request Options → Preview show what a first sweep would return, and change nothing.',
			name: 'getNewNotice',
			type: 'notice',
			default: '',
		},
	]),
	{
		displayName: 'Runs Of',
		name: 'runsOf',
		type: 'options',
		default: 'endUser',
		options: [
			{
				name: 'Every Automation of One Installation',
				value: 'installation',
				description: 'Reads the installation, then the runs of each of its automations',
			},
			{
				name: 'Every Automation of the End User',
				value: 'endUser',
				description: "One list of all of the end user's runs (the fewest calls)",
			},
			{ name: 'One Automation', value: 'bundle' },
		],
	},
	{
		...installationLocator,
		description: 'The installation whose automations ran',
		displayOptions: { show: { runsOf: ['installation', 'bundle'] } },
	},
	{ ...bundleSelect, displayOptions: { show: { runsOf: ['bundle'] } } },
	{
		displayName: 'Group Into Incidents',
		name: 'groupIntoIncidents',
		type: 'boolean',
		default: false,
		description:
			'Whether to output incidents per automation instead of runs: one item when an automation starts failing (incidentOpened), none for further failures, one when it succeeds again (incidentResolved)',
	},
	{
		displayName: 'Remind After (Hours)',
		name: 'remindAfterHours',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description:
			'An incidentReminder item, with the count of failed runs so far, each time an incident has been open this long again. 0: no reminders.',
		displayOptions: { show: { groupIntoIncidents: [true] } },
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { hide: { groupIntoIncidents: [true] } },
		options: [runStatusFilter],
	},
	...shownBefore(5, [optionsCollection([MAX_RUNS_TOTAL, MAX_RUNS_PER_CUSTOMER, dateOffsetOption])]),
	...shownFrom(5, [optionsCollection(WINDOW_OPTIONS)]),
];

/** One execution's sweep: the customers read so far, and the memory they are compared with. */
interface Sweep {
	client: AlbatoClient;
	/** Manual executions and Preview neither read nor write the memory: they show a first sweep. */
	manual: boolean;
	staticData?: IDataObject;
	memory: ReturnType<typeof memoryOf>;
	reads: Read[];
}

/**
 * Run → Get New: per customer item, the ended runs this node has not returned before. Each item is
 * a unit that reads its customer (the router runs up to Items in Flight at once). Once all are
 * read, one gate (gate.ts) records in n8n's deduplication store what the execution is about to
 * return: the new runs and, for incidents, each customer's first-sweep marks and the reminders
 * due; only what no other execution recorded before is returned. Names are looked up for the
 * customers with something to return, and the memory in the workflow's static data is updated for
 * the customers read. A customer that fails leaves its memory as it was; when the node fails anyway
 * (a failure without Continue On Fail) the router does not finish the sweep: nothing is returned or
 * remembered. See docs/runs.md "Watch every customer".
 */
export function plan(jobs: Job[], execution: Execution): BatchPlan {
	const { ctx, client } = execution;
	if (sweepsByWindows(ctx.getNode())) return planWindows(jobs, execution);
	const manual = ctx.getMode() === 'manual' || execution.preview;
	const staticData = manual ? undefined : ctx.getWorkflowStaticData('node');
	const memory = memoryOf(staticData?.[MEMORY_KEY]);
	const sweep: Sweep = { client, manual, staticData, memory, reads: [] };
	const units = jobs.map(
		(job): Unit => ({
			itemIndexes: [job.itemIndex],
			execute: async () => {
				const known = manual ? undefined : memory.customers[job.key];
				sweep.reads.push(await readEndUser(client, job, known));
			},
		}),
	);
	return { units, finish: async () => await finishSweep(sweep, execution) };
}

/**
 * The gate for every customer read, their answers with names, the records no longer needed removed
 * (docs/runs.md, "Bounded memory: the invariant"), and the memory updated.
 */
async function finishSweep(sweep: Sweep, execution: Execution): Promise<void> {
	const { ctx } = execution;
	const { manual, reads, memory } = sweep;
	const now = Date.now();
	const rounds = gateRounds(reads, now, async (read) => await catchUp(ctx, sweep, read));
	const named = new Set<Read>();
	const name = async (passed: ReadonlySet<string>) =>
		await nameAnswers(sweep, { passed, now, named, execution });
	const gate = manual
		? { passed: new Set(await allKeys(rounds)), heldBefore: new Set<string>(), markers: [] }
		: // The names' requests overlap the gate's wait.
			await passGate(ctx, rounds, { whileSettling: name });
	const { passed } = gate;
	await name(passed);
	const forgotten: string[] = [];
	for (const read of reads) {
		const window = windowOf(read, gate.heldBefore);
		execution.ended(read.job.itemIndex, answer(read, passed, now, window));
		forgotten.push(...forgottenKeys(read, window, { passed, now }));
	}
	if (!manual) {
		await reassertGate(ctx, passed);
		await forgetRecords(ctx, [...gate.markers, ...forgotten]);
		for (const { job, next } of reads) memory.customers[job.key] = next;
		if (reads.length) boundMemory(memory, reads[0].job.limits);
		sweep.staticData![MEMORY_KEY] = memory as unknown as IDataObject;
	}
}

/**
 * A customer swept before whose read met no run handled before: read again deeper (a long gap). A
 * failed read leaves the first one (its newest runs are returned; n8n's log says so).
 */
async function catchUp(ctx: IExecuteFunctions, { client }: Sweep, read: Read): Promise<void> {
	try {
		await readDeeper(client, read);
	} catch (error) {
		ctx.logger.warn(
			`Run → Get New: the catch-up read of item ${read.job.itemIndex} failed (${(error as Error)?.message ?? ''}): only its newest runs were returned`,
		);
	}
}

/**
 * Names the automations of each customer (End User scope) with something to return under
 * `passed`, once per sweep. The runs are recorded already: a failed lookup leaves the titles
 * empty, it loses nothing.
 */
async function nameAnswers(
	{ client, reads }: Sweep,
	{ passed, now, named, execution }: NamingRound,
): Promise<void> {
	const due = reads.filter(
		(read) =>
			read.job.scope === 'endUser' && !named.has(read) && answer(read, passed, now).length > 0,
	);
	await execution.inFlight(due, async (read) => {
		named.add(read);
		try {
			await nameAutomations(client, read.job.itemIndex, read.names);
		} catch {
			// Unnamed, as read.
		}
	});
}

interface NamingRound {
	passed: ReadonlySet<string>;
	now: number;
	/** The customers named already in this sweep. */
	named: Set<Read>;
	execution: Execution;
}
