import type { IDataObject } from 'n8n-workflow';

import { idOf } from '../../../shared/readers/shapes';
import { withoutTokens } from '../../../shared/readers/mintedToken';
import { isoOrNull } from './tokenOutput';

/** What the service says of the user (add-user's data); fields it did not send are null. */
export const PROFILE_FIELDS = [
	'email',
	'language',
	'timezoneOffset',
	'planId',
	'trxLimit',
] as const;

/**
 * What a repeat (the user existed) takes from get-user-profile: Albato's id and the profile fields,
 * so the item has the same keys, filled, as for a user just created.
 */
export function profileFieldsOf(profile: unknown): IDataObject {
	const data = withoutTokens(profile);
	return Object.fromEntries(
		['id', ...PROFILE_FIELDS]
			.filter((key) => data[key] !== undefined)
			.map((key) => [key, data[key] as IDataObject[string]]),
	);
}

/**
 * Sent by the service but said once under another name (id → albatoUserId; expiry →
 * tokenValidUntil).
 */
const RENAMED = ['id', 'sessionTokenValidUntil'];

/**
 * One End User item, the same keys whether the user was just created or already existed:
 * `endUserId` (your id), `albatoUserId` (Albato's number), the profile fields, and the token's
 * expiry once, as ISO time. The token itself only when asked for.
 */
export function endUserItem(spec: {
	endUserId: string;
	created: boolean;
	data?: unknown;
	expiresAt: number | undefined;
	token?: string | null;
}): IDataObject {
	const data = withoutTokens(spec.data);
	const extras = Object.fromEntries(
		Object.entries(data).filter(
			([key]) => !RENAMED.includes(key) && !(PROFILE_FIELDS as readonly string[]).includes(key),
		),
	) as IDataObject;
	const profile = Object.fromEntries(
		PROFILE_FIELDS.map((key) => [key, (data[key] as IDataObject[string]) ?? null]),
	);
	return {
		endUserId: spec.endUserId,
		created: spec.created,
		albatoUserId: idOf(data.id) ?? null,
		...profile,
		...extras,
		tokenValidUntil: isoOrNull(spec.expiresAt),
		...(spec.token !== undefined ? { token: spec.token } : {}),
	};
}
