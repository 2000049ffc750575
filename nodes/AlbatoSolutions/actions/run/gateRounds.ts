/**
 * Run → Get New: which keys a sweep's gate sends, round by round (gate.ts, passGate). Each customer
 * sends its newest watched runs first (KEPT_RUNS of them), then older ones only while it has not met
 * a run handled before, doubling each round, and once it has, down to LATE_RUNS below it
 * (runWindow.ts). A sweep with nothing new sends one round of records the store holds already, so it
 * adds nothing; a long gap sends a few rounds, and one longer than the read, a deeper read.
 */
import type { IDataObject } from 'n8n-workflow';

import { knownGateKey, runGateKey } from '../../../shared/readers/runKeys';
import type { Read } from './endUserRead';
import { KEPT_RUNS, LATE_RUNS } from './runWindow';
import { endUserKeys, handledBefore, watchedOf } from './sweepAnswer';

export type KeyRounds = (heldBefore: ReadonlySet<string>) => Promise<string[]>;

/** Reads a customer again, deeper (customerRead.ts, readDeeper). */
export type Deepen = (read: Read) => Promise<void>;

/** The keys of every customer read, in rounds: an empty round ends the gate's sends. */
export function gateRounds(reads: Read[], now: number, deepen?: Deepen): KeyRounds {
	const cursors = reads.map((read) => cursorOf(read, now, deepen));
	return async (heldBefore) =>
		(await Promise.all(cursors.map(async (next) => await next(heldBefore)))).flat();
}

/** Every key the rounds would send when the store holds none (a manual sweep's view). */
export async function allKeys(rounds: KeyRounds): Promise<string[]> {
	const keys: string[] = [];
	for (let next = await rounds(new Set()); next.length > 0; next = await rounds(new Set()))
		keys.push(...next);
	return keys;
}

/**
 * Whether a read holds fewer runs than the sweep may return: runs down to LATE_RUNS below the
 * frontier (or any, with none) that the memory's depth (Max Remembered Runs per Customer) left out of
 * the new ones, or, with no frontier, pages left unread.
 */
function cutShort(read: Read, frontier: number, heldBefore: ReadonlySet<string>): boolean {
	if (frontier < 0 && !read.complete) return true;
	const fresh = new Set(read.fresh);
	const handled = handledBefore(read, heldBefore);
	const reach = frontier < 0 ? undefined : frontier + LATE_RUNS + 1;
	return watchedOf(read)
		.slice(0, reach)
		.some((run) => !fresh.has(run) && !handled(run));
}

/**
 * One customer's rounds. When its read met no run handled before and was cut short, and the
 * customer was swept before (its memory, or its `known` record in the store, asked for then), a long
 * gap is behind it: it is read again deeper (`deepen`) and the rounds go on down that read.
 */
function cursorOf(read: Read, now: number, deepen: Deepen | undefined): KeyRounds {
	const knownKey = knownGateKey(read.job.key);
	let extras = endUserKeys(read, now);
	let deepened = deepen === undefined;
	let examined = 0;
	const sent = new Set<string>();
	const keyOf = (run: IDataObject) => runGateKey(read.job.key, run.id);
	/** Sends what the rounds reach given what the store held so far (runWindow.ts). */
	const sendDown = (heldBefore: ReadonlySet<string>, keys: string[]) => {
		const watched = watchedOf(read);
		const fresh = new Set(read.fresh);
		const handled = handledBefore(read, heldBefore);
		for (;;) {
			const frontier = watched.findIndex((run) => handled(run));
			const target = Math.min(
				watched.length,
				frontier >= 0 ? frontier + LATE_RUNS + 1 : examined === 0 ? KEPT_RUNS : 2 * examined,
			);
			if (examined >= target) return frontier;
			for (const run of watched.slice(0, target))
				if (fresh.has(run) && !sent.has(keyOf(run))) {
					sent.add(keyOf(run));
					keys.push(keyOf(run));
				}
			examined = target;
			if (keys.length > 0) return frontier;
		}
	};
	/** No memory, its known record new (sent in round 1), no run handled before: a first sweep. */
	const firstSweep = (heldBefore: ReadonlySet<string>) =>
		read.previous === undefined &&
		!heldBefore.has(knownKey) &&
		!watchedOf(read).some(handledBefore(read, heldBefore));
	return async (heldBefore) => {
		const keys = extras;
		extras = [];
		const frontier = sendDown(heldBefore, keys);
		if (keys.length > 0 || deepened || !cutShort(read, frontier, heldBefore)) return keys;
		if (firstSweep(heldBefore)) return keys;
		deepened = true;
		await deepen!(read);
		examined = 0; // the deeper read from its top again (what was sent is not sent twice)
		sendDown(heldBefore, keys);
		return keys;
	};
}
