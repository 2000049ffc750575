/**
 * The end users' accounts as the emulator keeps them beyond their records: plan, usage and deletion
 * (user lifecycle), block, plan taken away and extra transactions (billing). Parts of the state
 * (state.ts), keyed by token subject; imports nothing, so that types.ts can name them.
 */

/** Plans, usage this month and deleted users (handlers/userLifecycle.ts). */
export class LifecycleStore {
	/** Token subject → plan id (absent: DEFAULT_PLAN_ID, the plan add-user answers). */
	readonly plans = new Map<string, number>();
	/** Token subject → transactions used this month. */
	readonly used = new Map<string, number>();
	/** Subjects of deleted users. */
	readonly deleted = new Set<string>();

	reset(): void {
		this.plans.clear();
		this.used.clear();
		this.deleted.clear();
	}
}

/** Blocked users, plans taken away and extra transactions (handlers/billing.ts). */
export class BillingStore {
	/** Subjects of blocked users. */
	readonly blocked = new Set<string>();
	/** Subjects whose plan was taken away (no active plan until set-user-plan). */
	readonly planless = new Set<string>();
	/** Subject → extra transactions added this month. */
	readonly extra = new Map<string, number>();

	reset(): void {
		this.blocked.clear();
		this.planless.clear();
		this.extra.clear();
	}

	forget(sub: string): void {
		this.blocked.delete(sub);
		this.planless.delete(sub);
		this.extra.delete(sub);
	}
}
