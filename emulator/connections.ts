/**
 * The connections' part of the state (state.ts): connection by link, update-user-data, the
 * partner's own connection, and the emulator's clock; the state's reset clears it with `.clear()`.
 *
 * The clock: `now()` is the real time plus an offset that tests move (`emu.clock.advance(ms)`), or
 * a time it was frozen at (`POST /__emulator/clock {"freeze": true}`: run streams, runStream.ts).
 * Only what this file times uses it: link expiry (48 h) and the links' `dateCreated`. Token `exp`
 * is still checked against the real time.
 */
import { randomBytes } from 'crypto';

import type { LinkRecord, OwnCredentialRecord, RefreshRule } from './connectionTypes';

/** How long a link works after creation (or renewal): 48 h, as both Albato pages say. */
export const LINK_LIFETIME_MS = 48 * 3600 * 1000;
/** First sharing id given out (the docs' example answers id 61). */
export const FIRST_LINK_ID = 301;

export const REFRESH_PRESETS = { progress: [1, 2, 3], requeued: [4] } as const;

const linkToken = () =>
	randomBytes(16)
		.toString('base64')
		.replace(/[^A-Za-z]/g, '')
		.slice(0, 10)
		.padEnd(10, 'x');

export class ConnectionsStore {
	clockOffsetMs = 0;
	readonly links = new Map<number, LinkRecord>();
	nextLinkId = FIRST_LINK_ID;
	readonly ownCredentials = new Map<number, OwnCredentialRecord>();
	nextOwnCredentialId = 1;
	refresh: RefreshRule = { sequence: [...REFRESH_PRESETS.progress] };
	/** Position in the refresh sequence, by credential id. */
	readonly refreshPosition = new Map<number, number>();

	/** The clock stopped at this time (`freeze`), or null: it runs with the real time. */
	frozenAt: number | null = null;

	now(): number {
		return this.frozenAt ?? Date.now() + this.clockOffsetMs;
	}

	/** Stops the clock where it is (moves still move it), or lets it run on from there. */
	freeze(on: boolean): void {
		if (on) this.frozenAt ??= this.now();
		else if (this.frozenAt !== null) {
			this.clockOffsetMs = this.frozenAt - Date.now();
			this.frozenAt = null;
		}
	}

	nowIso(): string {
		return new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
	}

	advance(ms: number): void {
		if (typeof ms !== 'number' || !Number.isFinite(ms))
			throw new Error('the clock moves by a finite number of milliseconds');
		if (this.frozenAt !== null) this.frozenAt += ms;
		else this.clockOffsetMs += ms;
	}

	setNow(iso: string | number): void {
		const at = typeof iso === 'number' ? iso : Date.parse(iso);
		if (!Number.isFinite(at)) throw new Error(`cannot set the clock to ${JSON.stringify(iso)}`);
		if (this.frozenAt !== null) this.frozenAt = at;
		else this.clockOffsetMs = at - Date.now();
	}

	createLink(userId: string, partnerId: number, title: string): LinkRecord {
		const link: LinkRecord = {
			id: this.nextLinkId++,
			userId,
			partnerId,
			title,
			token: linkToken(),
			createdAt: this.now(),
			credentialId: null,
		};
		this.links.set(link.id, link);
		return link;
	}

	renewLink(link: LinkRecord): void {
		link.token = linkToken();
		link.createdAt = this.now();
	}

	expiresAt(link: LinkRecord): number {
		return link.createdAt + LINK_LIFETIME_MS;
	}

	isExpired(link: LinkRecord): boolean {
		return link.credentialId === null && this.now() >= this.expiresAt(link);
	}

	setRefresh(rule: { mode?: keyof typeof REFRESH_PRESETS; sequence?: number[] }): RefreshRule {
		for (const key of Object.keys(rule))
			if (!['mode', 'sequence'].includes(key))
				throw new Error(`unknown update-user-data setting "${key}"; use mode or sequence`);
		let sequence: number[];
		if (rule.sequence !== undefined) sequence = rule.sequence;
		else if (rule.mode && rule.mode in REFRESH_PRESETS) sequence = [...REFRESH_PRESETS[rule.mode]];
		else throw new Error('give "mode": "progress" | "requeued", or "sequence": [1, 2, 3]');
		if (
			!Array.isArray(sequence) ||
			sequence.length === 0 ||
			!sequence.every((s) => Number.isInteger(s) && s >= 0 && s <= 4)
		)
			throw new Error('"sequence" must be a non-empty list of updateStatus values 0–4');
		this.refresh = { sequence: [...sequence] };
		this.refreshPosition.clear();
		return this.refresh;
	}

	/** The updateStatus one update-user-data call answers for a credential, advancing its position. */
	nextUpdateStatus(credentialId: number): number {
		const { sequence } = this.refresh;
		const at = this.refreshPosition.get(credentialId) ?? 0;
		const status = sequence[Math.min(at, sequence.length - 1)];
		if (at >= sequence.length - 1) {
			// The last value: 3 (updated) ends the cycle, so the next call starts a new refresh.
			if (status === 3) this.refreshPosition.delete(credentialId);
			else this.refreshPosition.set(credentialId, sequence.length - 1);
		} else this.refreshPosition.set(credentialId, at + 1);
		return status;
	}

	clear(): void {
		this.clockOffsetMs = 0;
		this.frozenAt = null;
		this.links.clear();
		this.nextLinkId = FIRST_LINK_ID;
		this.ownCredentials.clear();
		this.nextOwnCredentialId = 1;
		this.refresh = { sequence: [...REFRESH_PRESETS.progress] };
		this.refreshPosition.clear();
	}
}
