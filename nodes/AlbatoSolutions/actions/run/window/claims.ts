/**
 * Run → Get New from node version 5: which ticks an execution sweeps and which it returns, decided
 * in n8n's deduplication store (ticks.ts names the keys; docs/runs.md, "Sweep windows"). Every
 * decision goes through the gate (../gate.ts): of two executions that record one key, only the
 * first gets it, so a tick is taken, and returned, by one execution only.
 *
 * 1. `claimWindow`, before any end user is read: the execution takes every tick of the lookback
 *    nobody took (`t`): its window. It also finds the ticks taken by others long ago (LEASE_MS) and
 *    never returned (`d` absent): an execution that failed or died. It sweeps those too.
 * 2. `settleWindow`, once every end user was read: the execution claims `d` for the ticks it
 *    returns. When some end user of its own window failed, it claims `s` for each end user it
 *    served instead, and leaves its window's `d` to a later execution, which then serves only the
 *    end users with no `s` (those that failed). The same `s` decides, per end user, a window taken
 *    over from another execution.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { forgetRecords, passGate, recordNew } from '../gate';
import { keepHeld } from '../gateKeep';
import {
	AGED_TICKS,
	WINDOW_CARRY_MS,
	LEFTOVER_BAND,
	LEFTOVER_SLICES,
	endTickAt,
	type GroupKeys,
	groupKeys,
	leaseOver,
	LOOKBACK_TICKS,
	lookback,
	spansOf,
	windowsOf,
} from './ticks';

export interface WindowClaim {
	keys: GroupKeys;
	/** The window's end tick (exclusive). */
	end: number;
	/** The ticks this execution took, oldest first. */
	own: number[];
	/** The group's first sweep: its window only sets the state (nothing before it is returned). */
	first: boolean;
	/** Ticks others took over a lease ago and never returned: swept by this execution too. */
	pending: number[];
	/** The gate's markers (removed at the end). */
	markers: string[];
	/** The first removal of the aged keys, under way while the end users are read. */
	cleared?: Promise<void>;
}

export interface ClaimInput {
	group: string;
	now: number;
	latenessMs: number;
}

/** Step 1: the execution's window, and the ticks it takes over. */
export async function claimWindow(
	ctx: IExecuteFunctions,
	{ group, now, latenessMs }: ClaimInput,
): Promise<WindowClaim> {
	const keys = groupKeys(group);
	const end = endTickAt(now, latenessMs);
	const ticks = lookback(end);
	let round = 0;
	const gate = await passGate(
		ctx,
		(heldBefore) => {
			round++;
			if (round === 1) return [keys.known, ...ticks.map(keys.taken)];
			if (round > 2) return [];
			const first = ticks.find((tick) => !heldBefore.has(keys.taken(tick)));
			return first === undefined ? [] : [keys.begins(first)];
		},
		{ carryMs: WINDOW_CARRY_MS },
	);
	const own = ticks.filter((tick) => gate.passed.has(keys.taken(tick)));
	const old = ticks.filter(
		(tick) => gate.heldBefore.has(keys.taken(tick)) && leaseOver(tick, now, latenessMs),
	);
	const notReturned = await notDone(ctx, keys, old);
	const claim: WindowClaim = {
		keys,
		end,
		own,
		first: gate.passed.has(keys.known),
		pending: wholeWindows(notReturned, { old, own }),
		markers: gate.markers,
	};
	// The aged keys go now too, while the end users are read: the sweep's end removes them again long
	// after any call that read the list before this removal has written it back (tidyUp).
	claim.cleared = forgetAll(ctx, agedKeys(claim));
	return claim;
}

/**
 * Of the ticks not returned, the spans that are whole: the tick after each is returned, or this
 * execution's. A span whose next tick is not over its lease yet may be the start of a window still
 * being swept (it is left for a later sweep), so a window is taken over whole or not at all.
 */
function wholeWindows(
	notReturned: number[],
	{ old, own }: { old: number[]; own: number[] },
): number[] {
	const pending = new Set(notReturned);
	const returned = new Set(old.filter((tick) => !pending.has(tick)));
	const mine = new Set(own);
	return spansOf(notReturned)
		.filter(([, next]) => returned.has(next) || mine.has(next))
		.flatMap(([from, to]) => Array.from({ length: to - from }, (_, n) => from + n));
}

/**
 * The ticks of `ticks` whose `d` the store lacks. n8n's store has no read without a write: the
 * keys are recorded, and those that were new removed again at once. Meanwhile another execution
 * reads those ticks as returned and leaves them (to this one).
 */
async function notDone(
	ctx: IExecuteFunctions,
	keys: GroupKeys,
	ticks: number[],
): Promise<number[]> {
	if (ticks.length === 0) return [];
	const added = new Set(await recordNew(ctx, ticks.map(keys.done)));
	if (added.size > 0) await forgetAll(ctx, [...added]);
	return ticks.filter((tick) => added.has(keys.done(tick)));
}

export interface Settled {
	/** The ticks whose runs this execution returns for an end user (its key). */
	allowed: (endUser: string) => Set<number>;
}

/**
 * Step 2: what this execution returns. `served` are the end users read without failure; `failed`
 * says whether any end user failed.
 */
export async function settleWindow(
	ctx: IExecuteFunctions,
	claim: WindowClaim,
	{ served, failed }: { served: string[]; failed: boolean },
): Promise<Settled> {
	const { keys, own, pending } = claim;
	const ownFirst = own[0];
	let windows: ReturnType<typeof windowsOf> = [];
	let round = 0;
	const gate = await passGate(
		ctx,
		(heldBefore) => {
			round++;
			if (round === 1)
				return [
					...(failed
						? own.length > 0
							? served.map((endUser) => keys.served(ownFirst, endUser))
							: []
						: own.map(keys.done)),
					...pending.map(keys.done),
					...pending.map(keys.begins),
				];
			if (round > 2) return [];
			const begins = new Set(pending.filter((tick) => heldBefore.has(keys.begins(tick))));
			windows = windowsOf(pending, begins);
			return windows.flatMap((window) =>
				served.map((endUser) => keys.served(window.first, endUser)),
			);
		},
		{ carryMs: WINDOW_CARRY_MS },
	);
	const { passed } = gate;
	const allowed = (endUser: string) => {
		const ticks = new Set<number>();
		const ownReturned = failed
			? own.length > 0 && passed.has(keys.served(ownFirst, endUser))
			: undefined;
		for (const tick of own) if (ownReturned ?? passed.has(keys.done(tick))) ticks.add(tick);
		for (const window of windows)
			if (passed.has(keys.served(window.first, endUser)))
				for (const tick of window.ticks) if (passed.has(keys.done(tick))) ticks.add(tick);
		return ticks;
	};
	await tidyUp(ctx, claim, {
		markers: gate.markers,
		passed,
		served: windows.flatMap((window) =>
			served.map((endUser) => keys.served(window.first, endUser)),
		),
	});
	return { allowed };
}

/**
 * The sweep's last calls: it removes what it no longer needs (its markers, the served keys of the
 * windows it took over, the aged keys), records again the keys it holds and checks that write as the
 * gate's (gateKeep.ts: a call that read the list before they were written and wrote it back after
 * the gate looked erased them), and removes the same keys once more (a call that read before the
 * first removal put them back), with the leftovers of older removals. A key is then lost, or left,
 * only by a call whose read and write span all three.
 */
async function tidyUp(
	ctx: IExecuteFunctions,
	claim: WindowClaim,
	{ markers, passed, served }: { markers: string[]; passed: Set<string>; served: string[] },
): Promise<void> {
	await claim.cleared;
	const gone = [...claim.markers, ...markers, ...served, ...agedKeys(claim)];
	await forgetAll(ctx, gone);
	const removed = new Set(gone);
	const held = [...new Set([...claim.own.map(claim.keys.taken), ...passed])];
	const kept = await keepHeld(
		ctx,
		held.filter((key) => !removed.has(key)),
	);
	await forgetAll(ctx, [...gone, ...kept, ...leftoverKeys(claim)]);
}

/** The oldest tick that left the lookback since the group's last sweeps. */
const agedFrom = ({ end, own }: WindowClaim) => end - LOOKBACK_TICKS - own.length - AGED_TICKS;

/**
 * The keys of ticks that left the lookback since the last sweeps (the store keeps none older). None
 * at the group's first sweep: the group has none yet, and each key not there costs the store a look
 * through the whole list.
 */
function agedKeys(claim: WindowClaim): string[] {
	const { keys, end, first } = claim;
	const aged: string[] = [];
	if (!first)
		for (let tick = agedFrom(claim); tick < end - LOOKBACK_TICKS; tick++)
			aged.push(keys.taken(tick), keys.done(tick), keys.begins(tick));
	return aged;
}

/**
 * Aged keys a removal left behind. n8n's store has no lock: a call that read the list before a
 * removal and wrote it back after puts the removed keys back (measured: 8 groups of one node, 2
 * workers, the store grew from 41,897 to 106,221 records in 9 simulated weeks). So each sweep
 * removes its keys twice, its own keys recorded again between (a call must then span both to put
 * a key back), and removes again, last, the slices of the band below its aged ticks that match the
 * ticks it took (tick mod LEFTOVER_SLICES; `t` and `d`: a `b` is on a window's first tick only, and
 * each key not there costs the store a look through the whole list). The group's sweeps take every
 * tick once, so every slice comes round on any schedule (an hourly sweep takes 12 ticks: 12
 * slices), and a catch-up after an outage (16 ticks or more) removes again the whole band.
 */
function leftoverKeys(claim: WindowClaim): string[] {
	const { keys, end, own, first } = claim;
	const slices = new Set((own.length > 0 ? own : [end]).map(sliceOf));
	const below = agedFrom(claim);
	const left: string[] = [];
	if (!first)
		for (let tick = below - LEFTOVER_BAND; tick < below; tick++)
			if (slices.has(sliceOf(tick))) left.push(keys.taken(tick), keys.done(tick));
	return left;
}

const sliceOf = (tick: number) => ((tick % LEFTOVER_SLICES) + LEFTOVER_SLICES) % LEFTOVER_SLICES;

/**
 * forgetRecords for any number of keys, REMOVE_PER_CALL at a time. n8n's store looks each key up in
 * the whole list between its read and its write, so a call's time grows with its keys times the
 * list, and a call that long erases what other calls recorded meanwhile (and puts back what they
 * removed). Small calls keep every call shorter than the gate's settle.
 */
async function forgetAll(ctx: IExecuteFunctions, keys: string[]): Promise<void> {
	for (let at = 0; at < keys.length; at += REMOVE_PER_CALL)
		await forgetRecords(ctx, keys.slice(at, at + REMOVE_PER_CALL));
}

/** Keys one removal call of the window's sweep sends (forgetAll). */
export const REMOVE_PER_CALL = 250;
