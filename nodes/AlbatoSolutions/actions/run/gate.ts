import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * How long the gate waits before it checks that its write held: longer than any one call of n8n's
 * deduplication store takes between its read and its write (milliseconds on a healthy database).
 */
export const GATE_SETTLE_MS = 500;

/**
 * Run → Get New's gate in n8n's deduplication store: which of `keys` no other execution has
 * recorded. n8n's store reads a node's list and writes it back without a lock, so when two
 * executions' calls meet, the later write drops the earlier one's additions and both calls answer
 * the same keys as new. So the gate records the keys with a marker of its own, waits
 * GATE_SETTLE_MS, and looks for its marker: still there, its write held and its new keys are its
 * own; gone, its write was overwritten by a call that read before it wrote, and it asks again for
 * its keys, keeping only those nobody else recorded (and recording them). A key then comes out of
 * two executions only if a store call took longer than GATE_SETTLE_MS between its read and its
 * write (docs/runs.md, "Overlap guarantee").
 */
export async function passGate(
	ctx: IExecuteFunctions,
	keys: string[],
	maxEntries: number,
	settleMs = GATE_SETTLE_MS,
): Promise<Set<string>> {
	const options = { mode: 'entries' as const, maxEntries };
	const marker = `gate\n${ctx.getExecutionId()}\n${Date.now()}\n${Math.random()}`;
	const first = await ctx.helpers.checkProcessedAndRecord([...keys, marker], 'node', options);
	let fresh = first.new.map(String).filter((key) => key !== marker);
	if (fresh.length === 0) return new Set();
	await sleep(settleMs);
	const held = await ctx.helpers.checkProcessedAndRecord([marker], 'node', options);
	if (held.new.length > 0) {
		const again = await ctx.helpers.checkProcessedAndRecord(fresh, 'node', options);
		fresh = again.new.map(String);
	}
	return new Set(fresh);
}
