/**
 * Run → Get New's gate (gate.ts): whether its writes held. n8n's store reads a node's list and writes
 * it back without a lock, so a write another execution's call overwrote is recorded again here, and
 * checked as the first was.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

/** One write of the gate: its marker and the keys it recorded first. */
export interface Round {
	marker: string;
	fresh: string[];
}

export const markerOf = (ctx: IExecuteFunctions) =>
	`gate\n${ctx.getExecutionId()}\n${Date.now()}\n${Math.random()}`;
export const isMarker = (value: string) => value.startsWith('gate\n');

/** How often a gate records again keys whose write was overwritten, and checks that it held. */
const AGAIN = 3;

/**
 * After the settle, each round's keys are this execution's if its marker is still there (its write
 * held). A round whose marker is gone was overwritten: of its keys, those new when recorded again
 * are (the others another execution recorded meanwhile), once that write is seen to hold too, after
 * another settle (up to AGAIN times; then as recorded). Rounds apart: one that held keeps its keys
 * though another was overwritten (asked again, they would come back as not new, and be returned by
 * no one: a window taken and never returned); a write again is checked as the first was.
 */
export async function heldOrAgain(
	ctx: IExecuteFunctions,
	rounds: Round[],
	{ record, settle, markers, onHeld }: Again,
): Promise<string[]> {
	const passed: string[] = [];
	let open = rounds;
	for (let time = 1; ; time++) {
		const erased = new Set(await record(open.map(({ marker }) => marker)));
		for (const { marker } of open) if (!erased.has(marker)) onHeld?.(marker);
		passed.push(...open.filter(({ marker }) => !erased.has(marker)).flatMap(({ fresh }) => fresh));
		const lost = open.filter(({ marker }) => erased.has(marker)).flatMap(({ fresh }) => fresh);
		if (lost.length === 0) return passed;
		const marker = markerOf(ctx);
		markers.push(marker);
		const again = new Set(await record([...lost, marker]));
		const fresh = lost.filter((key) => again.has(key));
		if (time === AGAIN) return [...passed, ...fresh];
		open = [{ marker, fresh }];
		await settle();
	}
}

interface Again {
	record: (values: string[]) => Promise<string[]>;
	settle: () => Promise<void>;
	/** The gate's markers: each write again adds its own (forgetRecords removes them). */
	markers: string[];
	/** A write whose marker was seen to hold (after the settle). */
	onHeld?: (marker: string) => void;
}
