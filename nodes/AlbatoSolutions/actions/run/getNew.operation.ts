import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	DETAIL_CONCURRENCY,
	getInstallation,
	listInstallations,
} from '../../../shared/api/installation';
import { bundlesOf } from '../../../shared/readers/bundles';
import { listRuns } from '../../../shared/api/run';
import {
	bundleSelect,
	installationLocator,
} from '../../../shared/descriptions/common.descriptions';
import { runItem } from '../../../shared/readers/runs';
import { sameId } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import { mapLimited } from '../../../shared/transport/mapLimited';
import type { BatchPlan, ItemResults, PlanContext, Unit } from '../types';
import { describeValue, idParameter, toId } from '../params';
import {
	boundMemory,
	type CustomerMemory,
	DEFAULT_LIMITS,
	enoughRead,
	isKnown,
	markOf,
	type MemoryLimits,
	memoryOf,
	sweepCustomer,
} from './runMemory';
import { passGate } from './gate';
import {
	dueReminders,
	incidentContextRead,
	incidentEvents,
} from '../../../shared/readers/incidents';
import {
	dateOffsetOption,
	readDateOffset,
	readStatusFilter,
	runStatusFilter,
	type StatusFilter,
} from './runFilters';

export const option = {
	name: 'Get New',
	action: 'Get new runs',
	description:
		'Runs that ended since this node last returned runs, each once across executions, per end user',
};

export const effect = 'read';

/** Where the memory lives in the workflow's static data (this node's part of it). */
export const MEMORY_KEY = 'getNewRuns';
/** Runs asked for per page (Yii's `per-page`; 50 is Yii's default maximum). */
export const RUNS_PER_PAGE = 50;

export const description: INodeProperties[] = [
	{
		displayName:
			'Returns each ended run once across executions, per End User (one item per customer). Manual executions in the editor, and Request Options → Preview, neither read nor change this memory: they show what a first sweep would return.',
		name: 'getNewNotice',
		type: 'notice',
		default: '',
	},
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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Max Remembered Runs in Total',
				name: 'maxRunsTotal',
				type: 'number',
				typeOptions: { minValue: 100 },
				default: 100000,
				description:
					'Ended runs this node remembers over all customers; past it every customer keeps an equal share of its newest runs',
			},
			{
				displayName: 'Max Remembered Runs per Customer',
				name: 'maxRunsPerCustomer',
				type: 'number',
				typeOptions: { minValue: 10 },
				default: 200,
				description:
					'Ended runs remembered per customer: older ones are taken as old history. A run that ends after more than this many newer runs of the customer ended is not returned. A first sweep returns at most this many runs per customer.',
			},
			dateOffsetOption,
		],
	},
];

interface Job {
	itemIndex: number;
	/**
	 * The customer and scope: keys the memory (base URL, partner and End User ID, or the token's
	 * user).
	 */
	key: string;
	endUserId?: string;
	scope: 'endUser' | 'installation' | 'bundle';
	installationId?: number;
	bundleId?: number;
	status: StatusFilter;
	/** Group Into Incidents: remind after this many ms (0: never); undefined: runs, not incidents. */
	incidents?: { remindAfterMs: number };
	offset: number;
	limits: MemoryLimits;
}

/** Where a bundle belongs, for naming the runs of the end-user-wide list. */
type BundleInfo = { installationId: unknown; installationTitle: unknown; bundleTitle: unknown };

interface Read {
	job: Job;
	/** The memory the read started from (undefined: the customer's first sweep, or a manual one). */
	previous?: CustomerMemory;
	/** Every run read, as the service sent it (incidents are decided from all of them). */
	runs: IDataObject[];
	/** The ended runs not handled before (by the memory). */
	fresh: IDataObject[];
	/** Each run read as an output item, without names. */
	items: Map<IDataObject, IDataObject>;
	next: CustomerMemory;
	names: Map<string, BundleInfo>;
}

/** One execution's sweep: the customers read so far, and the memory they are compared with. */
interface Sweep {
	client: AlbatoClient;
	/** Manual executions and Preview neither read nor write the memory: they show a first sweep. */
	manual: boolean;
	staticData?: IDataObject;
	memory: ReturnType<typeof memoryOf>;
	reads: Read[];
	/** A customer failed without Continue On Fail: nothing is returned or remembered. */
	stopped: boolean;
}

/**
 * Run → Get New: per customer item, the ended runs this node has not returned before. Each item is
 * a unit that reads its customer (the router runs up to Items in Flight at once). Once all are
 * read, one gate (gate.ts) records in n8n's deduplication store what the execution is about to
 * return: the new runs and, for incidents, each customer's first-sweep marks and the reminders
 * due; only what no other execution recorded before is returned. Names are looked up for the
 * customers with something to return, and the memory in the workflow's static data is updated for
 * the customers read. A customer that fails leaves its memory as it was. See docs/runs.md "Watch
 * every customer".
 */
export async function plan(
	this: IExecuteFunctions,
	client: AlbatoClient,
	itemIndexes: number[],
	context: PlanContext,
): Promise<BatchPlan> {
	const failed: ItemResults = new Map();
	const jobs: Job[] = [];
	for (const itemIndex of itemIndexes) {
		try {
			jobs.push(readJob(this, client, itemIndex));
		} catch (error) {
			failed.set(itemIndex, error as Error);
			if (!this.continueOnFail()) return { units: [], failed };
		}
	}
	const manual = this.getMode() === 'manual' || context.preview;
	const staticData = manual ? undefined : this.getWorkflowStaticData('node');
	const memory = memoryOf(staticData?.[MEMORY_KEY]);
	const sweep: Sweep = { client, manual, staticData, memory, reads: [], stopped: false };
	const units = jobs.map(
		(job): Unit => ({
			itemIndexes: [job.itemIndex],
			run: async () => {
				try {
					const known = manual ? undefined : memory.customers[job.key];
					sweep.reads.push(await readCustomer(client, job, known));
					return new Map();
				} catch (error) {
					sweep.stopped ||= !this.continueOnFail();
					return new Map([[job.itemIndex, error as Error]]);
				}
			},
		}),
	);
	return { units, failed, finish: async () => await finishSweep(this, sweep, context) };
}

/** The gate for every customer read, their answers with names, and the memory updated. */
async function finishSweep(
	ctx: IExecuteFunctions,
	sweep: Sweep,
	context: PlanContext,
): Promise<ItemResults> {
	const { client, manual, reads, memory } = sweep;
	const results: ItemResults = new Map();
	if (sweep.stopped) return results;
	const now = Date.now();
	const keys = reads.flatMap((read) => gateKeys(read, now));
	const passed =
		manual || keys.length === 0
			? new Set(keys)
			: await passGate(ctx, keys, Math.max(...reads.map(({ job }) => job.limits.total)));
	await context.inFlight(reads, async (read) => {
		let items = answer(read, passed, now);
		if (items.length && read.job.scope === 'endUser') {
			// The runs are recorded already: a failed lookup leaves the titles empty, it loses nothing.
			const named = await nameBundles(client, read.job.itemIndex, read.names).then(
				() => true,
				() => false,
			);
			if (named) items = answer(read, passed, now);
		}
		results.set(read.job.itemIndex, items);
	});
	if (!manual) {
		for (const { job, next } of reads) memory.customers[job.key] = next;
		if (reads.length) boundMemory(memory, reads[0].job.limits);
		sweep.staticData![MEMORY_KEY] = memory as unknown as IDataObject;
	}
	return results;
}

/**
 * A customer's gate keys: its new runs; with incidents also its first-sweep marks (one a week: a
 * customer with neither this week's nor last week's is on its first sweep) and the reminders due.
 */
function gateKeys(read: Read, now: number): string[] {
	const { job } = read;
	const keys = read.fresh.map((run) => runKey(job, run));
	if (!job.incidents) return keys;
	keys.push(...sweptMarks(job, now));
	const history = read.runs.map((run) => read.items.get(run)!);
	for (const { key } of dueReminders(history, job.incidents.remindAfterMs, now, {}))
		keys.push(`${job.key}\nremind\n${key}`);
	return keys;
}

const WEEK_MS = 7 * 86_400_000;
const sweptMarks = (job: Job, now: number) =>
	[0, 1].map((weeks) => `${job.key}\nswept\n${Math.floor(now / WEEK_MS) - weeks}`);

/** What one customer's sweep returns, the gate having said which keys are this execution's. */
function answer(read: Read, passed: Set<string>, now: number): IDataObject[] {
	const { job } = read;
	const named = (run: IDataObject) => withNames(job, read.items.get(run)!, read.names);
	const owned = read.fresh.filter((run) => passed.has(runKey(job, run))).map(named);
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
		if (passed.has(`${job.key}\nremind\n${reminder.key}`) && !openedNow.has(reminder.bundleId))
			items.push(reminder.item);
	return items;
}

/** A run's key in the gate: its id as the service sent it. */
const runKey = (job: Job, run: IDataObject) => `${job.key}\n${String(run.id)}`;

function readJob(ctx: IExecuteFunctions, client: AlbatoClient, itemIndex: number): Job {
	const scope = ctx.getNodeParameter('runsOf', itemIndex, 'endUser') as Job['scope'];
	if (!['endUser', 'installation', 'bundle'].includes(scope))
		throw new NodeOperationError(
			ctx.getNode(),
			`Runs Of must be "endUser", "installation" or "bundle", got ${describeValue(scope)}`,
			{ itemIndex },
		);
	const installationId =
		scope === 'endUser' ? undefined : idParameter(ctx, 'installationId', 'Installation', itemIndex);
	const bundleId =
		scope === 'bundle'
			? toId(ctx, ctx.getNodeParameter('bundleId', itemIndex, ''), 'Automation (Bundle)', itemIndex)
			: undefined;
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const limits = {
		perCustomer: readWhole(
			ctx,
			options.maxRunsPerCustomer,
			'Max Remembered Runs per Customer',
			10,
			DEFAULT_LIMITS.perCustomer,
			itemIndex,
		),
		total: readWhole(
			ctx,
			options.maxRunsTotal,
			'Max Remembered Runs in Total',
			100,
			DEFAULT_LIMITS.total,
			itemIndex,
		),
	};
	// The customer is read (and End User ID checked) before any request.
	const principal = client.principal(itemIndex);
	return {
		itemIndex,
		key: `${principal}\n${scope}:${installationId ?? ''}:${bundleId ?? ''}`,
		endUserId: client.partner?.endUserId(itemIndex),
		scope,
		installationId,
		bundleId,
		status: readStatusFilter(ctx, filters.status, itemIndex),
		incidents: ctx.getNodeParameter('groupIntoIncidents', itemIndex, false)
			? {
					remindAfterMs:
						readHours(ctx, ctx.getNodeParameter('remindAfterHours', itemIndex, 0), itemIndex) *
						3600000,
				}
			: undefined,
		offset: readDateOffset(ctx, options.dateOffsetMinutes, itemIndex),
		limits,
	};
}

/** Remind After (Hours): a number of at least 0 (fractions allowed). */
function readHours(ctx: IExecuteFunctions, raw: unknown, itemIndex: number): number {
	if (raw === undefined || raw === null || raw === '') return 0;
	if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0)
		throw new NodeOperationError(
			ctx.getNode(),
			`Remind After (Hours) must be a number of at least 0, got ${describeValue(raw)}`,
			{ itemIndex },
		);
	return raw;
}

function readWhole(
	ctx: IExecuteFunctions,
	raw: unknown,
	name: string,
	min: number,
	fallback: number,
	itemIndex: number,
): number {
	if (raw === undefined || raw === null || raw === '') return fallback;
	if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < min)
		throw new NodeOperationError(
			ctx.getNode(),
			`Options → ${name} must be a whole number of at least ${min}, got ${describeValue(raw)}`,
			{ itemIndex },
		);
	return raw;
}

/** One customer: its runs (as few pages as the memory allows), compared with its memory. */
async function readCustomer(
	client: AlbatoClient,
	job: Job,
	memory: CustomerMemory | undefined,
): Promise<Read> {
	const names = new Map<string, BundleInfo>();
	let complete = true;
	// Incidents need the runs before the new ones; reminders, every automation's current streak
	// (read up to Max Remembered Runs per Customer).
	const contextRead = !job.incidents
		? undefined
		: job.incidents.remindAfterMs > 0
			? () => false
			: (runs: IDataObject[]) =>
					incidentContextRead(
						runs,
						(run) => runItem(run, job.offset),
						(run) => !isKnown(memory, markOf(run, job.offset)),
					);
	const read = async (bundleId?: number | string) =>
		await listRuns(client, {
			bundleId,
			itemIndex: job.itemIndex,
			perPage: RUNS_PER_PAGE,
			enough: (runs, page) => {
				const enough = enoughRead(memory, runs, page, job.offset, job.limits, contextRead);
				if (enough) complete = false;
				return enough;
			},
		});
	const runs: IDataObject[] = [];
	if (job.scope === 'bundle') {
		runs.push(...(await read(job.bundleId)));
		names.set(String(job.bundleId), {
			installationId: job.installationId,
			installationTitle: null,
			bundleTitle: null,
		});
	} else if (job.scope === 'installation') {
		const installation = await getInstallation(client, job.installationId!, {
			withBundles: true,
			withStatus: false,
			itemIndex: job.itemIndex,
		});
		for (const bundle of bundlesOf(installation)) {
			names.set(String(bundle.id), {
				installationId: job.installationId,
				installationTitle: installation.title ?? null,
				bundleTitle: bundle.title ?? null,
			});
			runs.push(...(await read(String(bundle.id))));
		}
	} else {
		runs.push(...(await read()));
	}
	const { fresh, next } = sweepCustomer(memory, runs, job.offset, job.limits, Date.now(), complete);
	const items = new Map(runs.map((run) => [run, runItem(run, job.offset)]));
	return { job, previous: memory, runs, fresh, items, next, names };
}

/**
 * Names each bundle with its installation, only when there are new runs: the installation list,
 * then each installation with its automations. A failure fails the customer (its memory unchanged).
 */
async function nameBundles(
	client: AlbatoClient,
	itemIndex: number,
	names: Map<string, BundleInfo>,
): Promise<void> {
	const installations = await listInstallations(client, itemIndex);
	await mapLimited(installations, DETAIL_CONCURRENCY, async (item) => {
		const installation = await getInstallation(client, String(item.id), {
			withBundles: true,
			withStatus: false,
			itemIndex,
		});
		for (const bundle of bundlesOf(installation))
			names.set(String(bundle.id), {
				installationId: item.id,
				installationTitle: installation.title ?? item.title ?? null,
				bundleTitle: bundle.title ?? null,
			});
		return true;
	});
}

/** An output item of a run with its installation and automation names (as far as known). */
function withNames(job: Job, item: IDataObject, names: Map<string, BundleInfo>): IDataObject {
	const found = [...names.entries()].find(([id]) => sameId(id, item.bundleId))?.[1];
	return {
		...(job.endUserId === undefined ? {} : { endUserId: job.endUserId }),
		installationId: found?.installationId ?? job.installationId ?? null,
		installationTitle: found?.installationTitle ?? null,
		bundleTitle: found?.bundleTitle ?? null,
		...item,
	};
}
