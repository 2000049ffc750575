/**
 * Run → Get New's gate (gate.ts), at the end of a sweep: the keys it holds, recorded again and
 * checked as the gate's first write was. n8n's store reads a node's list and writes it back without
 * a lock: a call that read the list before the gate's write and wrote it back after the gate looked
 * erases the keys (the next sweep would take and return those ticks again), and so does a call that
 * read while they were erased and writes after they were put back.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { recordAgain, settleFor } from './gate';
import { ResumedByMarker } from './gateCarry';
import { heldOrAgain, markerOf } from './gateHeld';

/**
 * Records `keys` again with a marker, waits the gate's settle and looks for the marker: gone, the
 * keys are recorded again and checked the same way (heldOrAgain). Answers the markers it recorded
 * (to remove). A store error leaves the keys to this worker's later calls (they carry them).
 */
export async function keepHeld(ctx: IExecuteFunctions, keys: string[]): Promise<string[]> {
	const markers: string[] = [];
	if (keys.length === 0) return markers;
	const resumed = new ResumedByMarker(ctx);
	const record = async (values: string[]) => await recordAgain(ctx, values, resumed.sink(values));
	const settle = async () => await settleFor(ctx);
	try {
		const marker = markerOf(ctx);
		markers.push(marker);
		await record([...keys, marker]);
		await settle();
		await heldOrAgain(ctx, [{ marker, fresh: keys }], {
			record,
			settle,
			markers,
			onHeld: resumed.held,
		});
	} catch {
		// Carried by this worker's next calls on the list, and checked by the next sweep's gate.
	}
	return markers;
}
