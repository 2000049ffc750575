/**
 * Connection by link (Albato's grant-access-sharing) and refreshed user data: pure readers of
 * the answers, whatever shape they come in (numbers, numeric strings or words).
 */
import type { IDataObject } from 'n8n-workflow';

import { runDateMs } from './runs';
import { idOf, isObject } from './shapes';

/** "The link works only once and is valid for 48 hours" (Albato's guide). */
const LINK_LIFETIME_MS = 48 * 60 * 60 * 1000;

/** The link the customer opens (Albato's format): the only place the link token may appear. */
export const linkUrl = (id: number | string, token: string) =>
	`https://connect.integrations-hub.com?id=${encodeURIComponent(String(id))}&token=${encodeURIComponent(token)}`;

type LinkState = 'waiting' | 'connected' | 'expired';

const LINK_WORDS: Record<string, number> = { waiting: 0, connected: 1, expired: 2 };

export interface Sharing {
	id: number | string | undefined;
	partnerId: number | string | undefined;
	token: string | undefined;
	/** The service's status as a number (0 waiting, 1 connected, 2 expired), when readable. */
	status: number | undefined;
	credentialId: number | string | undefined;
	title: string | undefined;
	dateCreated: string | undefined;
	/**
	 * Connected when the service names the credential made (the status number alone is not trusted).
	 */
	state: LinkState;
}

/** A number from 1, "1", or a word of `words` (its index); runs.ts' codeOf reads numbers only. */
function codeOrWordOf(raw: unknown, words: Record<string, number>): number | undefined {
	if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
	if (typeof raw !== 'string') return undefined;
	const text = raw.trim().toLowerCase();
	if (/^\d+$/.test(text)) return Number(text);
	return words[text];
}

/**
 * Keys only a sharing has: an answer without any of them (`{}`, another record) is unreadable,
 * never "waiting".
 */
const SHARING_KEYS = ['id', 'token', 'status', 'credentialId'];

export const holdsSharing = (data: unknown): boolean =>
	isObject(data) && SHARING_KEYS.some((key) => data[key] !== undefined && data[key] !== null);

/** A sharing in any of its shapes; `state` from `credentialId` first. */
export function sharingOf(data: unknown): Sharing {
	const raw: IDataObject = isObject(data) ? data : {};
	const status = codeOrWordOf(raw.status, LINK_WORDS);
	// 0 (or "0") is how some services say "none yet" where the docs send null: not a connection.
	const sent = idOf(raw.credentialId);
	const credentialId = sent === 0 ? undefined : sent;
	const dateCreated =
		typeof raw.dateCreated === 'string' && runDateMs(raw.dateCreated) !== undefined
			? raw.dateCreated
			: undefined;
	return {
		id: idOf(raw.id),
		partnerId: idOf(raw.partnerId),
		token: typeof raw.token === 'string' && raw.token !== '' ? raw.token : undefined,
		status,
		credentialId,
		title: typeof raw.title === 'string' ? raw.title : undefined,
		dateCreated,
		state: credentialId !== undefined ? 'connected' : status === 2 ? 'expired' : 'waiting',
	};
}

/**
 * When the link stops working: 48 h after `dateCreated` (without a zone: UTC, as run dates), or
 * (the docs' example sends null) after `now`, and said so. Always computed: the service sends no
 * expiry.
 */
export function linkExpiry(
	dateCreated: string | undefined,
	now: number,
): { expiresAt: string; expiresAtNote: string } {
	const from = (dateCreated === undefined ? undefined : runDateMs(dateCreated)) ?? now;
	return {
		expiresAt: new Date(from + LINK_LIFETIME_MS).toISOString(),
		expiresAtNote:
			dateCreated === undefined
				? 'computed: 48 h from when this node received the link (the service sent no dateCreated)'
				: 'computed: 48 h after dateCreated',
	};
}

/** updateStatus values, as Albato's page names them. */
export const UPDATE_STATUS: Record<number, string> = {
	0: 'new',
	1: 'queued',
	2: 'in progress',
	3: 'updated',
	4: 're-queued',
};

const UPDATE_WORDS: Record<string, number> = {
	new: 0,
	queued: 1,
	updating: 2,
	'in progress': 2,
	in_progress: 2,
	updated: 3,
	requeued: 4,
	're-queued': 4,
};

export const UPDATED = 3;

/** `{updateStatus}` as a number; undefined when absent or unknown. */
export function updateStatusOf(data: unknown): number | undefined {
	return isObject(data) ? codeOrWordOf(data.updateStatus, UPDATE_WORDS) : undefined;
}

/** "2 (in progress)" */
export function describeUpdateStatus(status: number | undefined): string {
	if (status === undefined) return 'unreadable';
	return UPDATE_STATUS[status] ? `${status} (${UPDATE_STATUS[status]})` : String(status);
}
