/**
 * The rollout guard (Request Options → Canary Items, Stop After Failures): which items may start,
 * and what the items that never started are told. Read once per execution; asked by the router each
 * time an item (or, for a batch operation, a unit of items such as one installation's updates)
 * ends.
 *
 * - Canary Items N: the first N items (by item index) run to the end before any other starts; when
 *   one of them fails, nothing else starts. A unit holding a canary item is a canary unit: when any
 *   of its items fails, nothing else starts either. N at or above the item count makes every item a
 *   canary.
 * - Stop After Failures: a count ("3") or a percentage ("2%") of the items finished so far. Once
 *   the failures exceed it, no further item starts; items in flight finish (a pause they began is
 *   undone).
 * - Without Continue On Fail, the first failure starts no further items.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type CountOrPercent, describeCountOrPercent } from '../../shared/readers/countOrPercent';

/**
 * Stop After Failures: at most this many failures, or at most this share (percent) of the items
 * finished.
 */
export type FailureLimit = CountOrPercent;

/** Request Options → Canary Items and Stop After Failures (requestOptions.ts reads them). */
export interface RolloutSettings {
	canaryItems: number;
	stopAfterFailures?: FailureLimit;
}

/** The decision the run step asks each time an item or unit ends, and the tally it is made from. */
export class RolloutGuard {
	done = 0;
	failed = 0;
	private readonly counted = new Set<number>();
	/** Why no further item starts, once that is so. */
	private reason: string | undefined;

	/**
	 * `endUserIdOf`: the end user an item acts for (its End User ID, in partner mode), to name it
	 * in a reason; undefined when it has none.
	 */
	constructor(
		readonly settings: RolloutSettings,
		private readonly continueOnFail: boolean,
		private readonly endUserIdOf: (itemIndex: number) => string | undefined = () => undefined,
	) {}

	/** An item as a person counts it (the 5th is "item 5"), with its customer when it has one. */
	private named(itemIndex: number): string {
		const endUserId = this.endUserIdOf(itemIndex);
		return `item ${itemIndex + 1}${endUserId === undefined ? '' : ` (${endUserId})`}`;
	}

	/** Whether any of the guard's options is set (otherwise only Continue On Fail decides). */
	get active(): boolean {
		return this.settings.canaryItems > 0 || this.settings.stopAfterFailures !== undefined;
	}

	/** The first canary item among these (a unit's items), if any. */
	canaryOf(itemIndexes: number[]): number | undefined {
		return itemIndexes.find((itemIndex) => itemIndex < this.settings.canaryItems);
	}

	/**
	 * An item ended (`failed` when it failed); an item already counted is not counted again.
	 * `canary`: the canary item of the unit it ran in (itself, when it is one), if any.
	 */
	ended(failed: boolean, itemIndex: number, canary = this.canaryOf([itemIndex])): void {
		if (this.counted.has(itemIndex)) return;
		this.counted.add(itemIndex);
		if (failed) this.failed++;
		else this.done++;
		if (!failed || this.reason) return;
		const canaryItems = `(Canary Items ${this.settings.canaryItems})`;
		if (canary !== undefined) {
			this.reason =
				canary === itemIndex
					? `canary ${this.named(itemIndex)} failed ${canaryItems}`
					: `${this.named(itemIndex)} failed, run together with canary ${this.named(canary)} ${canaryItems}`;
			return;
		}
		const limit = this.settings.stopAfterFailures;
		if (limit && this.exceeded(limit)) {
			this.reason = `Stop After Failures (${describeCountOrPercent(limit)}) was exceeded`;
		} else if (!this.continueOnFail) {
			this.reason = `${this.named(itemIndex)} failed (no Continue On Fail)`;
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
