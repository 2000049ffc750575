/**
 * List lag: the spec promises no read-after-write consistency, so `GET /solution/installation` may
 * leave out an installation created moments ago. When set, each newly created installation is
 * missing from the list for its owner's next `reads` list calls and/or for `ms` milliseconds
 * (whichever lasts longer). The detail call and everything else see it at once.
 */
export interface ListLag {
	/** List calls (by the installation's owner) that leave it out. */
	reads?: number;
	/** Milliseconds after creation during which the list leaves it out. */
	ms?: number;
}

/** The lag set and the installations it still hides: a part of the state (state.ts). */
export class ListLagStore {
	lag: ListLag = {};
	private readonly hidden = new Map<number, { reads: number; until: number }>();

	set(lag: ListLag): void {
		for (const [key, value] of Object.entries(lag)) {
			if (!['reads', 'ms'].includes(key))
				throw new Error(`unknown list lag setting "${key}"; use reads, ms`);
			if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
				throw new Error(`list lag "${key}" must be a number ≥ 0`);
		}
		this.lag = { ...lag };
	}

	clear(): void {
		this.lag = {};
		this.hidden.clear();
	}

	created(id: number): void {
		const { reads = 0, ms = 0 } = this.lag;
		if (reads > 0 || ms > 0) this.hidden.set(id, { reads, until: Date.now() + ms });
	}

	/** Whether one list call shows the installation; counts the call against its lag. */
	listed(id: number): boolean {
		const entry = this.hidden.get(id);
		if (!entry) return true;
		const stillHidden = entry.reads > 0 || Date.now() < entry.until;
		entry.reads = Math.max(0, entry.reads - 1);
		if (!stillHidden) this.hidden.delete(id);
		return !stillHidden;
	}
}
