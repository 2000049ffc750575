import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

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
	const record = async (values: string[]) => await recordNew(ctx, values, maxEntries);
	const marker = `gate\n${ctx.getExecutionId()}\n${Date.now()}\n${Math.random()}`;
	let fresh = (await record([...keys, marker])).filter((key) => key !== marker);
	if (fresh.length === 0) return new Set();
	await sleep(settleMs);
	if ((await record([marker])).length > 0) fresh = await record(fresh);
	return new Set(fresh);
}

/** Records `values` in the node's list and answers those that were not in it. */
async function recordNew(
	ctx: IExecuteFunctions,
	values: string[],
	maxEntries: number,
): Promise<string[]> {
	for (let attempt = 1; ; attempt++) {
		try {
			const { new: added } = await ctx.helpers.checkProcessedAndRecord(values, 'node', {
				mode: 'entries',
				maxEntries,
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
