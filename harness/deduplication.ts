/**
 * n8n's deduplication store for tests, in memory. In n8n the CLI gives n8n-core a database-backed
 * IDataDeduplicator (packages/cli/src/deduplication/deduplication-helper.ts) behind
 * `this.helpers.checkProcessedAndRecord` and friends; the harness gives this one instead, with the
 * same rules for mode 'entries': one list per workflow and context ("n:<node id>" for scope 'node',
 * "" for 'workflow'), values kept as md5 hashes, new ones appended, the oldest dropped past
 * `maxEntries`. Like n8n's, a call reads the list, then writes it back after an await (n8n reads
 * and updates the row without a lock), so two overlapping calls can lose one's additions, as there.
 * And like n8n's, a call that found no list inserts one: when two first calls meet, the later
 * insert fails on the table's key with the error Postgres gives.
 */
import { createHash } from 'crypto';
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

const hashOf = (value: DeduplicationItemTypes) =>
	createHash('md5').update(value.toString()).digest('base64');

function contextOf(scope: DeduplicationScope, data: ICheckProcessedContextData): string {
	if (scope === 'node') {
		if (!data.node) throw new ApplicationError("No node information: cannot use scope 'node'");
		return `${String(data.workflow.id)}\u0000n:${data.node.id}`;
	}
	return `${String(data.workflow.id)}\u0000`;
}

const tick = async () => await new Promise<void>((resolve) => setImmediate(resolve));

export class MemoryDeduplicator implements IDataDeduplicator {
	/** context → { mode, hashes in the order recorded } */
	readonly rows = new Map<string, { mode: string; data: string[] }>();
	/** Calls made (checkProcessedAndRecord only). */
	calls = 0;
	/** Calls that started while another one on the same context was between its read and its write. */
	overlaps = 0;
	/** First calls that met another first call: their insert failed on the table's key. */
	insertConflicts = 0;
	private readonly inFlight = new Map<string, number>();
	/** Tests: awaited before a call reads (the items it records), to order calls. */
	beforeRead?: (items: DeduplicationItemTypes[]) => Promise<void>;
	/** Tests: awaited between a call's read and its write (to make two calls meet there). */
	betweenReadAndWrite?: (items: DeduplicationItemTypes[]) => Promise<void>;
	/**
	 * Tests: a removal made of a read, a scan and a write, as n8n's is (it looks each item up in the
	 * whole list: its time grows with the items times the list), awaited between its read and its
	 * write with the list's length read. Unset, a removal is at once.
	 */
	betweenRemoveReadAndWrite?: (
		items: DeduplicationItemTypes[],
		listLength: number,
	) => Promise<void>;

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		if (options.mode !== 'entries')
			throw new ApplicationError('The harness deduplicator keeps mode "entries" only');
		this.calls++;
		if (this.beforeRead) await this.beforeRead(items);
		const context = contextOf(scope, contextData);
		const stored = this.rows.get(context);
		if (stored && stored.mode !== options.mode)
			throw new ApplicationError('Deduplication data was saved with another mode');
		const data = [...(stored?.data ?? [])];
		const busy = this.inFlight.get(context) ?? 0;
		if (busy > 0) this.overlaps++;
		this.inFlight.set(context, busy + 1);
		await tick(); // the read and the write are apart, as in n8n's database helper
		if (this.betweenReadAndWrite) await this.betweenReadAndWrite(items);
		this.inFlight.set(context, (this.inFlight.get(context) ?? 1) - 1);
		if (!stored && this.rows.has(context)) {
			this.insertConflicts++;
			throw new ApplicationError(
				'duplicate key value violates unique constraint "PK_ca04b9d8dc72de268fe07a65773"',
			);
		}
		const out: IDeduplicationOutput = { new: [], processed: [] };
		const held = new Set(data);
		for (const item of items) {
			const hash = hashOf(item);
			if (held.has(hash)) out.processed.push(item);
			else {
				out.new.push(item);
				data.push(hash);
				held.add(hash);
			}
		}
		if (options.maxEntries) data.splice(0, Math.max(0, data.length - options.maxEntries));
		this.rows.set(context, { mode: options.mode, data });
		return out;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		const context = contextOf(scope, contextData);
		const row = this.rows.get(context);
		if (!row) return;
		const gone = new Set(items.map(hashOf));
		const read = row.data;
		if (this.betweenRemoveReadAndWrite) await this.betweenRemoveReadAndWrite(items, read.length);
		this.rows.set(context, { mode: row.mode, data: read.filter((hash) => !gone.has(hash)) });
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.rows.delete(contextOf(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<number> {
		return this.rows.get(contextOf(scope, contextData))?.data.length ?? 0;
	}

	/** Forgets everything (between tests). */
	clear(): void {
		this.rows.clear();
		this.calls = 0;
		this.overlaps = 0;
		this.insertConflicts = 0;
		this.betweenReadAndWrite = undefined;
		this.betweenRemoveReadAndWrite = undefined;
		this.beforeRead = undefined;
	}
}

let installed: MemoryDeduplicator | undefined;

/** The process's deduplication store: installed into n8n-core once (n8n-core allows one). */
export function deduplicationStore(): MemoryDeduplicator {
	if (!installed) {
		installed = new MemoryDeduplicator();
		void DataDeduplicationService.init(installed);
	}
	return installed;
}
