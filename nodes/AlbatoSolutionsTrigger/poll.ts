import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { AlbatoClient } from '../shared/transport/client';
import type { ChosenKind, EventKind, PollScope } from './eventKind';
import { incidentKind } from './incidentPoll';
import { installationKind } from './installationPoll';
import { NoSampleError } from './noSample';
import { runKind } from './runPoll';
import { usageKind } from './usagePoll';

/** Every kind of event, in the order of their items in a poll's output. A new kind goes here. */
export const KINDS: readonly EventKind[] = [installationKind, runKind, incidentKind, usageKind];

/**
 * The order the kinds read their parameters and are polled in: runs first. It decides which of two
 * bad parameters is reported, and the order in which a Fetch Test Event that finds nothing names
 * the kinds ("No finished runs …; no installations …").
 */
const POLL_ORDER: readonly EventKind[] = [runKind, ...KINDS.filter((kind) => kind !== runKind)];

/** The chosen kinds, with their parameters read, in POLL_ORDER. */
type Chosen = Map<EventKind, ChosenKind>;

/**
 * The trigger's one poll. It reads the parameters once, before any request, and builds one client.
 * Then it asks each chosen kind of event what changed since its baseline, kept in the workflow's
 * static data. The baselines are stored only when every kind succeeded: a poll that fails anywhere
 * emits nothing and changes nothing, so the next one reports what this one would have. In manual
 * mode ("Fetch Test Event") each kind gives a sample instead, and the baselines are left alone.
 */
export async function poll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const kinds = chooseKinds(ctx);
	if (ctx.getMode() === 'manual') {
		const scope = await scopeOf(ctx);
		return withEndUser(scope, await samples(scope, kinds));
	}
	return await unlessPolling(ctx.getWorkflowStaticData('node'), async () => {
		const scope = await scopeOf(ctx);
		return withEndUser(scope, await changes(scope, kinds));
	});
}

/** The Events parameter, read and checked once; then each chosen kind reads its own parameters. */
function chooseKinds(ctx: IPollFunctions): Chosen {
	const raw = ctx.getNodeParameter('events', []) as unknown;
	const chosen = (Array.isArray(raw) ? raw : [raw]).map(String);
	const known = KINDS.flatMap((kind) => kind.events);
	const unknown = chosen.filter((event) => !known.includes(event));
	if (chosen.length === 0 || unknown.length > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			chosen.length === 0
				? 'Choose at least one event to watch'
				: `Unknown event ${unknown.map((event) => `"${event}"`).join(', ')}`,
			{ description: `Events are ${known.join(', ')}` },
		);
	}
	const kinds = POLL_ORDER.filter((kind) => kind.events.some((event) => chosen.includes(event)));
	return new Map(kinds.map((kind) => [kind, kind.choose(ctx, chosen)]));
}

/** Baselines being polled (static data objects: a workflow's overlapping polls share one). */
const polling = new WeakSet<object>();

/**
 * n8n starts a poll at each Poll Times entry without waiting for the last one: two entries that
 * fire together, or a poll slower than the interval, would compare the same baseline twice and
 * emit each change twice. A poll that finds another running on this baseline does nothing; the
 * running one reports what it sees, and the next poll what came after (nothing is lost).
 */
async function unlessPolling<T>(baseline: object, run: () => Promise<T>): Promise<T | null> {
	if (polling.has(baseline)) return null;
	polling.add(baseline);
	try {
		return await run();
	} finally {
		polling.delete(baseline);
	}
}

/** The one client of this poll, whom it watches, and the reads its kinds share. */
async function scopeOf(ctx: IPollFunctions): Promise<PollScope> {
	const client = await AlbatoClient.create(ctx);
	const owner = client.namedPrincipal(undefined);
	const endUser = client.partner ? { endUserId: client.partner.endUserId(undefined) } : {};
	const reads = new Map<string, Promise<unknown>>();
	const once = async <T>(key: string, read: () => Promise<T>): Promise<T> => {
		if (!reads.has(key)) reads.set(key, read());
		return await (reads.get(key) as Promise<T>);
	};
	return { ctx, client, owner, endUser, once };
}

/** Trigger mode: every chosen kind's new items, one kind after the other; then their baselines. */
async function changes(scope: PollScope, chosen: Chosen): Promise<INodeExecutionData[][] | null> {
	const polled = new Map<EventKind, IDataObject[]>();
	const commits: Array<() => void> = [];
	for (const watch of chosen.values()) watch.plan?.(scope);
	for (const [kind, watch] of chosen) {
		const { items, commit } = await watch.poll(scope);
		polled.set(kind, items);
		commits.push(commit);
	}
	for (const commit of commits) commit();
	return output(scope.ctx, polled);
}

/** "Fetch Test Event": one sample per chosen kind that has one; fails only when none has. */
async function samples(scope: PollScope, chosen: Chosen): Promise<INodeExecutionData[][] | null> {
	const found = new Map<EventKind, IDataObject[]>();
	const missing: NoSampleError[] = [];
	for (const [kind, watch] of chosen) {
		try {
			found.set(kind, [await watch.sample(scope)]);
		} catch (error) {
			if (!(error instanceof NoSampleError)) throw error as Error;
			missing.push(error);
		}
	}
	if (found.size === 0) throw noSampleAtAll(missing);
	return output(scope.ctx, found);
}

/** One output of every kind's items, in the order of KINDS; null when there are none. */
function output(
	ctx: IPollFunctions,
	byKind: Map<EventKind, IDataObject[]>,
): INodeExecutionData[][] | null {
	const items = KINDS.flatMap((kind) => byKind.get(kind) ?? []);
	return items.length > 0 ? [ctx.helpers.returnJsonArray(items)] : null;
}

/** One kind without a sample: its own error; several: one error naming each. */
function noSampleAtAll(missing: NoSampleError[]): NoSampleError {
	if (missing.length === 1) return missing[0];
	return new NoSampleError(
		missing[0].node,
		missing
			.map(({ message }, index) =>
				index === 0 ? message : message[0].toLowerCase() + message.slice(1),
			)
			.join('; '),
		{ description: missing.map((error) => error.description).join(' ') },
	);
}

/**
 * Every event item, of every kind, passes here: in partner mode it carries the End User ID it was
 * polled for, so the next nodes can act as that end user with {{ $json.endUserId }}.
 */
function withEndUser(
	{ endUser }: PollScope,
	output: INodeExecutionData[][] | null,
): INodeExecutionData[][] | null {
	if (output === null || !('endUserId' in endUser)) return output;
	return output.map((items) =>
		items.map((item) => ({ ...item, json: { ...item.json, ...endUser } })),
	);
}
