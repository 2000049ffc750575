/**
 * Run → Get New from node version 5: sweep windows in event time (docs/runs.md, "Sweep windows").
 * Pure: the tick arithmetic and the store keys.
 *
 * Time is cut into ticks of TICK_MS (the service's run end times decide which tick a run is in). A
 * sweep group's ticks are claimed in n8n's deduplication store, each by one execution: `t` when an
 * execution takes it to sweep, `d` when the runs that ended in it have been returned, `b` on the
 * first tick of each window (where one execution's ticks begin), `s` for an end user whose part of
 * a window was returned although the window as a whole was not (some other end user failed), and
 * `known` once the group has been swept. The store keeps these for LOOKBACK_TICKS only: what it
 * holds is bounded by the number of groups, not by the fleet, its runs or its age.
 */

/** A tick: 5 minutes. Windows begin and end on ticks. */
export const TICK_MS = 5 * 60_000;

/** How far back a sweep looks for ticks nobody swept (8 days: a week's outage and a day more). */
export const LOOKBACK_TICKS = (8 * 24 * 60 * 60_000) / TICK_MS;

/**
 * How long an execution has to return the ticks it took before a later execution may sweep them
 * instead (it then returns them only if it claims them first: never both).
 */
export const LEASE_MS = 30 * 60_000;

/**
 * How long a worker's later store calls record again the window keys its sweep decided (gate.ts's
 * carry): past the group's next sweeps, so that what another worker's call erased after the sweep
 * ended is put back before a later sweep could take the window over.
 */
export const WINDOW_CARRY_MS = 30 * 60_000;

/** Ticks removed per sweep below the lookback (those that aged out since the last sweeps). */
export const AGED_TICKS = 24;

/**
 * Below the ticks a sweep ages out, the band whose keys it removes again: the slices (tick mod
 * LEFTOVER_SLICES) of the ticks it took (claims.ts), so what a removal left behind goes once the
 * group's sweeps have taken LEFTOVER_SLICES ticks, on any schedule. Not less: a catch-up's removals
 * (8 groups at once) are often undone, and the steady sweeps' slices retry them when it is quiet. A
 * band of a lookback and 128 ticks in 64 slices, with aged keys removed twice rather than three
 * times, left about 1,800 keys a week for good (2,000 customers: the store 1.17× in 8 weeks).
 */
export const LEFTOVER_BAND = 2 * LOOKBACK_TICKS;
export const LEFTOVER_SLICES = 16;

export const tickOf = (ms: number) => Math.floor(ms / TICK_MS);
export const tickStart = (tick: number) => tick * TICK_MS;

/** The window's end tick (exclusive) at `now`: runs need `latenessMs` to end and be listed. */
export const endTickAt = (now: number, latenessMs: number) => tickOf(now - latenessMs);

/** Every tick the sweep at `end` tests (the lookback), oldest first. */
export function lookback(end: number): number[] {
	return Array.from({ length: LOOKBACK_TICKS }, (_, n) => end - LOOKBACK_TICKS + n);
}

/** Ticks another execution took long enough ago that this one may sweep them if they are not done. */
export const leaseOver = (tick: number, now: number, latenessMs: number) =>
	tickStart(tick + 1) + latenessMs + LEASE_MS <= now;

export interface GroupKeys {
	taken: (tick: number) => string;
	done: (tick: number) => string;
	begins: (tick: number) => string;
	served: (tick: number, endUser: string) => string;
	known: string;
}

/** The store keys of one sweep group ("" is the node's one group). */
export function groupKeys(group: string): GroupKeys {
	const prefix = `w\n${group}\n`;
	return {
		taken: (tick) => `${prefix}t\n${tick}`,
		done: (tick) => `${prefix}d\n${tick}`,
		begins: (tick) => `${prefix}b\n${tick}`,
		served: (tick, endUser) => `${prefix}s\n${tick}\n${endUser}`,
		known: `${prefix}known`,
	};
}

/** Ticks as maximal runs of consecutive ticks, oldest first: [first, end) each. */
export function spansOf(ticks: Iterable<number>): Array<[number, number]> {
	const sorted = [...new Set(ticks)].sort((a, b) => a - b);
	const spans: Array<[number, number]> = [];
	for (const tick of sorted) {
		const last = spans[spans.length - 1];
		if (last && last[1] === tick) last[1] = tick + 1;
		else spans.push([tick, tick + 1]);
	}
	return spans;
}

/**
 * The windows of taken-over ticks: each span split where a window begins (`b` held), each part with
 * the tick its window began on (the part's first tick when no `b` was found there).
 */
export function windowsOf(
	ticks: Iterable<number>,
	begins: ReadonlySet<number>,
): Array<{ first: number; ticks: number[] }> {
	const windows: Array<{ first: number; ticks: number[] }> = [];
	for (const [from, to] of spansOf(ticks))
		for (let tick = from; tick < to; tick++) {
			const open = windows[windows.length - 1];
			if (!open || tick === from || begins.has(tick)) windows.push({ first: tick, ticks: [tick] });
			else open.ticks.push(tick);
		}
	return windows;
}
