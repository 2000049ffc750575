/**
 * The rollout guard (Request Options → Canary Items, Stop After Failures): which items may start,
 * and what the items that never started are told. Read once per execution; asked by the router each
 * time an item (or, for a batch operation, a unit of items such as one installation's updates)
 * ends.
 *
 * - Canary Items N: the first N items (by item index) run to the end before any other starts; when
 *   one of them fails, nothing else starts. N at or above the item count makes every item a canary.
 * - Stop After Failures: a count ("3") or a percentage ("2%") of the items finished so far. Once
 *   the failures exceed it, no further item starts; items in flight finish (a pause they began is
 *   undone).
 * - Without Continue On Fail, the first failure starts no further items (as always).
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	type CountOrPercent,
	countOrPercentOf,
	describeCountOrPercent,
} from '../../shared/readers/countOrPercent';

/**
 * Stop After Failures: at most this many failures, or at most this share (percent) of the items
 * finished.
 */
export type FailureLimit = CountOrPercent;

export interface RolloutSettings {
	canaryItems: number;
	stopAfterFailures?: FailureLimit;
}

const requestOption = (ctx: IExecuteFunctions) =>
	ctx.getNodeParameter('requestOptions', 0, {}) as IDataObject;

function refused(ctx: IExecuteFunctions, label: string, rule: string, value: unknown) {
	return new NodeOperationError(
		ctx.getNode(),
		`Request Options → ${label} must be ${rule}, got ${JSON.stringify(value)}`,
		{
			itemIndex: 0,
			description: 'Nothing was sent. Request Options apply to the whole execution.',
		},
	);
}

/** Canary Items and Stop After Failures, checked before anything is sent. */
export function readRollout(ctx: IExecuteFunctions): RolloutSettings {
	const raw = requestOption(ctx);
	const canary = raw.canaryItems ?? 0;
	if (typeof canary !== 'number' || !Number.isInteger(canary) || canary < 0)
		throw refused(ctx, 'Canary Items', 'a whole number from 0 up', canary);
	return { canaryItems: canary, stopAfterFailures: readFailureLimit(ctx, raw.stopAfterFailures) };
}

/** "3" (failures), "2%" or "2.5 %" (of the items finished), empty: off. */
function readFailureLimit(ctx: IExecuteFunctions, value: unknown): FailureLimit | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const limit = countOrPercentOf(value, { zero: true });
	if (limit) return limit;
	throw refused(
		ctx,
		'Stop After Failures',
		'a whole number of failures (e.g. 3) or a percentage from 0 to 100 (e.g. 2%)',
		value,
	);
}

/** The decision the run step asks each time an item or unit ends, and the tally it is made from. */
export class RolloutGuard {
	done = 0;
	failed = 0;
	private readonly counted = new Set<number>();
	/** Why no further item starts, once that is so. */
	private reason: string | undefined;

	constructor(
		readonly settings: RolloutSettings,
		private readonly continueOnFail: boolean,
	) {}

	/**
	 * Whether any of the guard's options is set (otherwise the node behaves exactly as before them).
	 */
	get active(): boolean {
		return this.settings.canaryItems > 0 || this.settings.stopAfterFailures !== undefined;
	}

	isCanary(itemIndex: number): boolean {
		return itemIndex < this.settings.canaryItems;
	}

	/** An item ended (`failed` when it failed); an item already counted is not counted again. */
	ended(failed: boolean, itemIndex: number): void {
		if (this.counted.has(itemIndex)) return;
		this.counted.add(itemIndex);
		if (failed) this.failed++;
		else this.done++;
		if (!failed || this.reason) return;
		if (this.isCanary(itemIndex)) {
			this.reason = `canary item ${itemIndex} failed (Canary Items ${this.settings.canaryItems})`;
			return;
		}
		const limit = this.settings.stopAfterFailures;
		if (limit && this.exceeded(limit)) {
			this.reason = `Stop After Failures (${describeCountOrPercent(limit)}) was exceeded`;
		} else if (!this.continueOnFail) {
			this.reason = `item ${itemIndex} failed (no Continue On Fail)`;
		}
	}

	private exceeded(limit: FailureLimit): boolean {
		if ('count' in limit) return this.failed > limit.count;
		return (this.failed / (this.done + this.failed)) * 100 > limit.percent;
	}

	/** Whether another item (or unit) may start now. */
	mayStart(): boolean {
		return this.reason === undefined;
	}

	/**
	 * The message that items never started carry (and that fails the node without Continue On Fail):
	 * why, and the counts.
	 */
	notAttemptedMessage(notAttempted: number): string {
		const why = this.reason ?? 'the run stopped';
		return `Not attempted: ${why}. ${this.done} done, ${this.failed} failed, ${notAttempted} not attempted`;
	}

	/** An item that was never started, as an error its item carries. */
	notAttemptedError(node: INode, itemIndex: number, notAttempted: number): NotAttemptedError {
		return new NotAttemptedError(node, itemIndex, this.notAttemptedMessage(notAttempted), {
			notAttempted: true,
			done: this.done,
			failed: this.failed,
			notAttemptedCount: notAttempted,
			...(this.settings.canaryItems ? { canaryItems: this.settings.canaryItems } : {}),
			...(this.settings.stopAfterFailures
				? { stopAfterFailures: describeCountOrPercent(this.settings.stopAfterFailures) }
				: {}),
		});
	}
}

/**
 * Runs `task` over `entries` in order, at most `atOnce()` at a time (asked each time one may start:
 * the client's window, so under Auto the items started follow the slow start instead of all
 * starting at once and waiting for a request slot), until a task answers false. With the guard on,
 * that keeps "no further item starts" meaningful whatever Items in Flight is.
 */
export async function startEach<T>(
	entries: T[],
	atOnce: () => number,
	task: (entry: T) => Promise<boolean>,
): Promise<void> {
	let next = 0;
	let running = 0;
	let stopped = false;
	await new Promise<void>((resolve, reject) => {
		const pump = () => {
			while (!stopped && next < entries.length && running < Math.max(1, atOnce())) {
				const entry = entries[next++];
				running++;
				task(entry)
					.then((go) => {
						if (!go) stopped = true;
					}, reject)
					.finally(() => {
						running--;
						pump();
					});
			}
			if (running === 0 && (stopped || next >= entries.length)) resolve();
		};
		pump();
	});
}

/** An item the rollout guard did not start: nothing was sent for it. */
export class NotAttemptedError extends NodeOperationError {
	constructor(
		node: INode,
		itemIndex: number,
		message: string,
		readonly details: IDataObject,
	) {
		super(node, message, {
			itemIndex,
			description:
				'Nothing was sent for this item. Fix the cause of the failures, then run the workflow again over the same items: items already done cost no write (Installation → Ensure, Start and Pause with Skip If Already in Status).',
		});
	}
}
