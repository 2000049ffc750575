/**
 * The request summary: counts of every call served, by kind, status and token, that stay small
 * however many calls a fleet job sends (the request pipeline adds to it; the control surface reads it).
 */
import type { RequestLogEntry } from './types';

/** Counts of the calls served, by kind and status: what a fleet benchmark reads instead of the log. */
export class RequestSummary {
	byKind: Record<string, number> = {};
	byStatus: Record<string, number> = {};
	rateLimited = 0;
	total = 0;
	tokenCallsByUser = new Map<string, number>();
	/** By token kind (`master`: the /wl partner calls; `endUser`: the others), form and status. */
	byAuth: Record<string, number> = {};

	add(entry: RequestLogEntry): void {
		this.total++;
		const kind = `${entry.method} ${kindOf(entry.path)}`;
		this.byKind[kind] = (this.byKind[kind] ?? 0) + 1;
		const status = String(entry.status || 'reset');
		this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
		if (entry.status === 429) this.rateLimited++;
		const auth = `${tokenKindOf(entry.path)} ${entry.auth} ${status}`;
		this.byAuth[auth] = (this.byAuth[auth] ?? 0) + 1;
		// A refused call (401) issued no token: it is counted in byAuth, not as a token call.
		if (/\/get-user-session-token$/.test(entry.path) && entry.status !== 401) {
			const body = entry.body as { id?: unknown } | undefined;
			const id = String(body?.id ?? body ?? '');
			this.tokenCallsByUser.set(id, (this.tokenCallsByUser.get(id) ?? 0) + 1);
		}
	}

	clear(): void {
		this.byKind = {};
		this.byStatus = {};
		this.rateLimited = 0;
		this.total = 0;
		this.tokenCallsByUser.clear();
		this.byAuth = {};
	}

	toJson() {
		// One pass, no spread: 100,000 users are more arguments than Math.max takes.
		const histogram: Record<string, number> = {};
		let total = 0;
		let max = 0;
		for (const calls of this.tokenCallsByUser.values()) {
			histogram[calls] = (histogram[calls] ?? 0) + 1;
			total += calls;
			if (calls > max) max = calls;
		}
		return {
			total: this.total,
			byKind: this.byKind,
			byStatus: this.byStatus,
			rateLimited: this.rateLimited,
			unauthorized: this.byStatus['401'] ?? 0,
			/** "<master|endUser> <bearer|basicUsername|basicRaw|none|other> <status>" → calls. */
			byAuth: this.byAuth,
			tokenCalls: {
				users: this.tokenCallsByUser.size,
				total,
				maxPerUser: max,
				/** How many users had 1, 2, … token calls. */
				histogram,
			},
		};
	}
}

/** Which token a call carries: the master token on the partner (/wl) calls, else an end user's. */
const tokenKindOf = (path: string) => (path.startsWith('/wl/') ? 'master' : 'endUser');

/** A path with its numeric segments as {id} and the partner segment of /wl as {partner}. */
export const kindOf = (path: string) =>
	path.replace(/^\/wl\/[^/]+\//, '/wl/{partner}/').replace(/\/\d+(?=\/|$)/g, '/{id}');
