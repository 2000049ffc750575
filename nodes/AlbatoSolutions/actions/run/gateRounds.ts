/**
 * Run → Get New: which keys a sweep's gate sends, round by round (gate.ts, passGate). Each customer
 * sends its newest watched runs first (KEPT_RUNS of them), then older ones only while it has not met
 * a run handled before, doubling each round, and once it has, down to LATE_RUNS below it
 * (runWindow.ts). A sweep with nothing new sends one round of records the store holds already, so it
 * adds nothing; a long gap sends a few rounds.
 */
import type { IDataObject } from 'n8n-workflow';

import { runGateKey } from '../../../shared/readers/runKeys';
import type { Read } from './customerRead';
import { KEPT_RUNS, LATE_RUNS } from './runWindow';
import { customerKeys, handledBefore, watchedOf } from './sweepAnswer';

export type KeyRounds = (heldBefore: ReadonlySet<string>) => string[];

/** The keys of every customer read, in rounds: an empty round ends the gate's sends. */
export function gateRounds(reads: Read[], now: number): KeyRounds {
	const cursors = reads.map((read) => cursorOf(read, now));
	return (heldBefore) => cursors.flatMap((next) => next(heldBefore));
}

/** Every key the rounds would send when the store holds none (a manual sweep's view). */
export function allKeys(rounds: KeyRounds): string[] {
	const keys: string[] = [];
	for (let next = rounds(new Set()); next.length > 0; next = rounds(new Set())) keys.push(...next);
	return keys;
}

function cursorOf(read: Read, now: number): KeyRounds {
	const watched = watchedOf(read);
	const fresh = new Set(read.fresh);
	const keyOf = (run: IDataObject) => runGateKey(read.job.key, run.id);
	let extras = customerKeys(read, now);
	let sent = 0;
	/** How far down the list this customer sends, given what the store held so far. */
	const reach = (heldBefore: ReadonlySet<string>) => {
		const handled = handledBefore(read, heldBefore);
		const frontier = watched.findIndex((run) => handled(run));
		if (frontier >= 0) return Math.min(watched.length, frontier + LATE_RUNS + 1);
		return Math.min(watched.length, sent === 0 ? KEPT_RUNS : 2 * sent);
	};
	return (heldBefore) => {
		const keys = extras;
		extras = [];
		for (let target = reach(heldBefore); sent < target; target = reach(heldBefore)) {
			for (; sent < target; sent++) if (fresh.has(watched[sent])) keys.push(keyOf(watched[sent]));
			if (keys.length > 0) break;
		}
		return keys;
	};
}
