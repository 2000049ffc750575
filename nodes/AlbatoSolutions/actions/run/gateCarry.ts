/**
 * Run → Get New's gate (gate.ts): the carry. What this process decided on a node's list, recorded
 * again in its later calls on that list.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { isMarker } from './gateHeld';

/** The node's list in n8n's store: one per workflow and node. */
export const listOf = (ctx: IExecuteFunctions) =>
	`${ctx.getWorkflow().id ?? ''}\n${ctx.getNode().id}`;

/**
 * What this process's gates decided lately, per node's list. Every later store call of the process on
 * that list records them again: another worker's call that read the list before a gate's write and
 * wrote it back after erases that gate's records, even after the gate checked them and recorded them
 * once more at its end (measured at 30,000 customers: one batch's records erased twice in a row,
 * each time by a call that added nothing, so the batch's next sweep was a first sweep). This worker's
 * next call puts them back. Every key decided within CARRY_MS is carried, however many: a cap on
 * their number dropped the oldest batches' keys whenever a worker's gates decided more (measured at
 * 100,000 customers in batches of 5,000: 20,250 keys a batch, one batch's records erased for good
 * and its 250 recoveries unreported). Time alone bounds them: a worker decides at its own pace.
 */
export interface Carried {
	/** Carried in every call on the list until then. */
	until: number;
	keys: string[];
	/** Its own carry (Get New's windows), resumed once past it (carriedOnce). */
	againMs?: number;
	/** Resumed: carried until a gate sees a write of them hold (confirmCarried). */
	resumed?: boolean;
}
const decided = new Map<string, Carried[]>();
const CARRY_MS = 120_000;
/**
 * Keys decided with their own carry (Get New's windows: few) are carried again from the process's
 * first call on the list past it, unless older than the lookback, until a gate's check sees one of
 * those writes hold (or for that carry at most): a group swept hourly, or after a pause (a
 * catch-up), puts back what a late write erased at the end of its last sweeps before a sweep takes
 * that window over. Checked, not once: a catch-up's first calls meet every group's, and one write
 * that such a call erased left the keys erased for good (measured: 2,000 customers, a week's
 * catch-up took over one group's last steady window, 7 incidents twice). Not for the whole carry
 * either: a catch-up's own keys (4,000 a group) then rode every call of the next one (2,000
 * customers, week 1: store calls p50 417 ms against 171, steady sweeps 58 / 35 s against 36 / 29).
 */
const ONCE_WITHIN_MS = 8 * 86_400_000;
const carried = (now: number) => (entry: Carried) =>
	entry.until > now || (entry.againMs !== undefined && entry.until + ONCE_WITHIN_MS > now);

export function noteDecided(ctx: IExecuteFunctions, keys: string[], carryMs?: number) {
	const now = Date.now();
	for (const [list, entries] of decided) if (!entries.some(carried(now))) decided.delete(list);
	if (keys.length === 0) return;
	const key = listOf(ctx);
	const entries = (decided.get(key) ?? []).filter(carried(now));
	entries.push({ until: now + (carryMs ?? CARRY_MS), keys, againMs: carryMs });
	decided.set(key, entries);
}

/** The keys this process decided on the node's list and still carries, newest first. */
export function decidedLately(ctx: IExecuteFunctions, now: number): string[] {
	const entries = (decided.get(listOf(ctx)) ?? []).filter(carried(now));
	return entries.reverse().flatMap(({ keys }) => keys);
}

/**
 * After a call that carried them (at `now`): the keys past their carry that had one of their own
 * are resumed, the others carried no more. Answers the resumed ones this call carried: a gate that
 * sees the call's write hold confirms them.
 */
export function carriedOnce(ctx: IExecuteFunctions, now: number): Carried[] {
	const entries = decided.get(listOf(ctx));
	if (!entries) return [];
	const kept = entries.filter(carried(now)).flatMap((entry): Carried[] => {
		if (entry.until > now) return [entry];
		if (entry.againMs === undefined) return [];
		return [{ until: now + entry.againMs, keys: entry.keys, resumed: true }];
	});
	decided.set(listOf(ctx), kept);
	return kept.filter((entry) => entry.resumed);
}

/** Resumed keys a gate saw written and held: carried no more. */
export function confirmCarried(ctx: IExecuteFunctions, confirmed: Carried[]) {
	const entries = decided.get(listOf(ctx));
	if (!entries || confirmed.length === 0) return;
	const done = new Set(confirmed);
	decided.set(
		listOf(ctx),
		entries.filter((entry) => !done.has(entry)),
	);
}

/** Keys removed from the list are carried no more. */
export function forgetCarried(keys: string[]) {
	const gone = new Set(keys);
	for (const entries of decided.values())
		for (const entry of entries) entry.keys = entry.keys.filter((key) => !gone.has(key));
}

/**
 * The resumed carried keys each of a gate's writes took along, by the write's marker (its last
 * value): once the gate sees that marker held, the write held and they are carried no more.
 */
export class ResumedByMarker {
	private readonly byMarker = new Map<string, Carried[]>();
	constructor(private readonly ctx: IExecuteFunctions) {}
	/** Where a write of `values` puts them: none for the gate's check (markers only). */
	sink(values: string[]): Carried[] | undefined {
		const marker = values[values.length - 1];
		if (values.length < 2 || isMarker(values[0])) return undefined;
		const resumed: Carried[] = [];
		this.byMarker.set(marker, resumed);
		return resumed;
	}
	readonly held = (marker: string) => confirmCarried(this.ctx, this.byMarker.get(marker) ?? []);
}
