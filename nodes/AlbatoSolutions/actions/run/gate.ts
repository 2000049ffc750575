import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import {
	type Carried,
	carriedOnce,
	decidedLately,
	forgetCarried,
	listOf,
	noteDecided,
	ResumedByMarker,
} from './gateCarry';
import { heldOrAgain, markerOf, type Round } from './gateHeld';

/**
 * How long the gate waits before it checks that its write held: longer than any one call of n8n's
 * deduplication store takes between its read and its write (milliseconds on a healthy database).
 */
export const GATE_SETTLE_MS = 500;

/**
 * n8n's store inserts a node's list on its first write. When two executions' first calls meet, the
 * later insert fails on the table's key and writes nothing (Postgres: "duplicate key value violates
 * unique constraint", SQLite: "UNIQUE constraint failed", MySQL: "Duplicate entry"). The list
 * exists then, so asking again reads it and updates it.
 */
const FIRST_WRITE_CONFLICT = /duplicate key|unique constraint|duplicate entry/i;
const FIRST_WRITE_ATTEMPTS = 3;

/**
 * n8n's own limit on the node's list (`maxEntries`: past it n8n drops the oldest records). The
 * sweeps keep the list bounded by the fleet themselves (forgetRecords; docs/runs.md "Bounded
 * memory"), so this is set far above what they keep and decides nothing.
 */
export const STORE_MAX_ENTRIES = 10_000_000;

/**
 * Run → Get New's gate in n8n's deduplication store: which of `keys` no other execution has
 * recorded. n8n's store reads a node's list and writes it back without a lock, so when two
 * executions' calls meet, the later write drops the earlier one's additions and both calls answer
 * the same keys as new. So the gate records the keys with a marker of its own, waits (settle), and
 * looks for its marker: still there, its write held and its new keys are its own; gone, its write was
 * overwritten by a call that read before it wrote, and it asks again for its keys, keeping only
 * those nobody else recorded (and recording them). The wait is GATE_SETTLE_MS, or twice the slowest
 * store call this worker made lately when the store is slower (a large list, a busy worker): the
 * calls that can erase are another worker's, which take as long under the same load (measured at
 * 30,000 customers: 0.3 s typical, up to 2 s, while one gate's own calls took 0.1 s). A key then
 * comes out of two executions only if another execution's call took longer than that between its
 * read and its write (docs/runs.md, "Overlap guarantee").
 *
 * The keys go in rounds: `nextKeys` names the keys to send next, given those found in the store so
 * far (the sweep sends each customer's newest runs first, and older ones only until it meets the runs
 * handled before: runWindow.ts); each round's call carries a marker of its own. It answers the keys
 * that are this execution's (`passed`), those already in the store when first sent (`heldBefore`)
 * and its markers (for forgetRecords).
 */
export async function passGate(
	ctx: IExecuteFunctions,
	nextKeys: (heldBefore: ReadonlySet<string>) => string[] | Promise<string[]>,
	{ settleMs = GATE_SETTLE_MS, whileSettling, carryMs }: GateOptions = {},
): Promise<GateResult> {
	const resumed = new ResumedByMarker(ctx);
	const record = async (values: string[]) => await recordNew(ctx, values, resumed.sink(values));
	const heldBefore = new Set<string>();
	const rounds: Round[] = [];
	for (let keys = await nextKeys(heldBefore); keys.length > 0; keys = await nextKeys(heldBefore)) {
		const marker = markerOf(ctx);
		const added = new Set(await record([...keys, marker]));
		rounds.push({ marker, fresh: keys.filter((key) => added.has(key)) });
		for (const key of keys) if (!added.has(key)) heldBefore.add(key);
	}
	const markers = rounds.map(({ marker }) => marker);
	const all = rounds.flatMap(({ fresh }) => fresh);
	if (all.length === 0) return { passed: new Set(), heldBefore, markers };
	const settle = async () => await settleFor(ctx, settleMs);
	await Promise.all([settle(), whileSettling?.(new Set(all))]);
	const fresh = await heldOrAgain(ctx, rounds, { record, settle, markers, onHeld: resumed.held });
	noteDecided(ctx, fresh, carryMs);
	return { passed: new Set(fresh), heldBefore, markers };
}

/** The gate's wait: `settleMs`, or twice the slowest store call this worker made lately. */
export async function settleFor(ctx: IExecuteFunctions, settleMs = GATE_SETTLE_MS): Promise<void> {
	await sleep(Math.max(settleMs, 2 * slowestLately(ctx)));
}

export interface GateResult {
	/** The keys that are this execution's. */
	passed: Set<string>;
	/** The keys that were in the store at the call that first sent them. */
	heldBefore: Set<string>;
	/** The gate's own markers, one per call that sent keys (recorded; forgetRecords removes them). */
	markers: string[];
}

/**
 * After the sweep's answer is built: records its own keys once more, so that what another
 * execution's slower store call erased by now is put back before this execution ends (the worker's
 * later calls carry them too, see `decided`). A store error here loses nothing already decided, so
 * it is left to those later calls and the next sweep's gate.
 */
export async function reassertGate(
	ctx: IExecuteFunctions,
	passed: ReadonlySet<string>,
): Promise<void> {
	if (passed.size === 0) return;
	try {
		await recordNew(ctx, [...passed]);
	} catch {
		// Carried by this worker's next call on the list.
	}
}

/**
 * Removes records the sweeps no longer read (runs past KEPT_RUNS, the gate's marker): this keeps the
 * node's list bounded by the fleet. This worker stops carrying them. A failure leaves them for the
 * next sweep that reads them (n8n's log says so): it loses nothing.
 */
export async function forgetRecords(ctx: IExecuteFunctions, all: string[]): Promise<void> {
	// n8n's store looks each one up in the whole list (a scan per key): a call removes at most
	// FORGET_PER_CALL; what is left stays until n8n's own limit drops it (a first sweep's deep runs).
	const keys = all.slice(0, FORGET_PER_CALL);
	if (keys.length === 0) return;
	forgetCarried(keys);
	try {
		await oneAtATime(ctx, async () => {
			const started = Date.now();
			await ctx.helpers.removeProcessed(keys, 'node', {
				mode: 'entries',
				maxEntries: STORE_MAX_ENTRIES,
			});
			noteCall(ctx, Date.now() - started);
		});
	} catch (error) {
		ctx.logger.warn(
			`Run → Get New: n8n's deduplication store did not remove ${keys.length} records no longer needed (${(error as Error)?.message ?? ''}); a later sweep removes them`,
		);
	}
}

/** Records one sweep removes at most (see forgetRecords). */
export const FORGET_PER_CALL = 2_000;

export interface GateOptions {
	settleMs?: number;
	/**
	 * How long this worker's later store calls record the keys again (CARRY_MS unless set): Get New's
	 * windows carry theirs until the group's next sweeps, whose calls put back what another worker's
	 * call erased meanwhile (a tick's keys are few; a run's are not).
	 */
	carryMs?: number;
	/**
	 * Work to do during the settle with the keys this execution recorded first (a superset of what
	 * passes): the sweep names the automations of the runs it will likely return. It must not fail.
	 */
	whileSettling?: (likely: ReadonlySet<string>) => Promise<void>;
}

/**
 * This process's store calls, one at a time per node's list: n8n's store reads a list and writes it
 * back without a lock, so two calls that meet lose one's additions. Executions on one worker never
 * meet there; those on different workers still can (the gate's settle and reassertGate). Keyed by
 * workflow and node; a key is dropped once its last call ends.
 */
const storeQueues = new Map<string, Promise<unknown>>();

async function oneAtATime<T>(ctx: IExecuteFunctions, call: () => Promise<T>): Promise<T> {
	const key = listOf(ctx);
	const mine = (storeQueues.get(key) ?? Promise.resolve()).then(call, call);
	const settled = mine.then(
		() => undefined,
		() => undefined,
	);
	storeQueues.set(key, settled);
	try {
		return await mine;
	} finally {
		if (storeQueues.get(key) === settled) storeQueues.delete(key);
	}
}

/**
 * How long this process's latest store calls on a list took (the call itself, not its wait for the
 * process's other calls): the last RECENT_CALLS, within RECENT_MS.
 */
const recentCalls = new Map<string, Array<{ at: number; ms: number }>>();
const RECENT_CALLS = 20;
const RECENT_MS = 10 * 60_000;

function noteCall(ctx: IExecuteFunctions, ms: number) {
	const key = listOf(ctx);
	const now = Date.now();
	const calls = (recentCalls.get(key) ?? []).filter(({ at }) => now - at < RECENT_MS);
	calls.push({ at: now, ms });
	recentCalls.set(key, calls.slice(-RECENT_CALLS));
	// Lists no longer called (another workflow, a node removed): gone once RECENT_MS old.
	for (const [list, listCalls] of recentCalls)
		if (now - listCalls[listCalls.length - 1].at >= RECENT_MS) recentCalls.delete(list);
}

/** The slowest of this process's recent store calls on the node's list (0 if none). */
function slowestLately(ctx: IExecuteFunctions): number {
	const now = Date.now();
	const calls = recentCalls.get(listOf(ctx)) ?? [];
	return Math.max(0, ...calls.filter(({ at }) => now - at < RECENT_MS).map(({ ms }) => ms));
}

/**
 * Records `values` in the node's list, with the keys this process decided lately (carried), and
 * answers those of `values` that were not in it. A key another execution of this process decided is
 * never answered as new: that execution returned it. A carried key found missing was erased by
 * another worker and is recorded again (n8n's log says how many, as a warning).
 */
export async function recordNew(
	ctx: IExecuteFunctions,
	values: string[],
	resumed?: Carried[],
): Promise<string[]> {
	const { added, ours } = await recordCarried(ctx, values, resumed);
	return added.filter((key) => !ours.has(key));
}

/** recordNew, answering every one of `values` that was not in the list (this process's too). */
export async function recordAgain(
	ctx: IExecuteFunctions,
	values: string[],
	resumed?: Carried[],
): Promise<string[]> {
	return (await recordCarried(ctx, values, resumed)).added;
}

/** `resumed` gets the resumed carried keys the call wrote (gateCarry.ts's carriedOnce). */
async function recordCarried(ctx: IExecuteFunctions, values: string[], resumed?: Carried[]) {
	const now = Date.now();
	const lately = decidedLately(ctx, now);
	const asked = new Set(values);
	const added = await storeCall(ctx, [...values, ...lately.filter((key) => !asked.has(key))]);
	resumed?.push(...carriedOnce(ctx, now));
	const ours = new Set(lately);
	const restored = added.filter((key) => ours.has(key)).length;
	if (restored > 0)
		ctx.logger.warn(
			`Run → Get New: ${restored} records of this worker's recent sweeps in n8n's deduplication store were erased by another worker's store call and were recorded again`,
		);
	return { added: added.filter((key) => asked.has(key)), ours };
}

/** One call of n8n's store, this process's calls on the list one at a time; answers what was new. */
async function storeCall(ctx: IExecuteFunctions, values: string[]): Promise<string[]> {
	for (let attempt = 1; ; attempt++) {
		try {
			const { new: added } = await oneAtATime(ctx, async () => {
				const started = Date.now();
				const answer = await ctx.helpers.checkProcessedAndRecord(values, 'node', {
					mode: 'entries',
					maxEntries: STORE_MAX_ENTRIES,
				});
				noteCall(ctx, Date.now() - started);
				return answer;
			});
			return added.map(String);
		} catch (error) {
			const conflict = FIRST_WRITE_CONFLICT.test((error as Error)?.message ?? '');
			if (!conflict || attempt === FIRST_WRITE_ATTEMPTS)
				throw new NodeOperationError(ctx.getNode(), error as Error, {
					description:
						"n8n's deduplication store failed, so nothing was returned or remembered: the next sweep returns these runs.",
				});
			await sleep(20 * attempt + Math.random() * 30);
		}
	}
}
