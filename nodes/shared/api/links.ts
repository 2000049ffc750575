/**
 * Connection by link and refreshed user data (Albato's docs; outside the Solution spec). Each
 * endpoint in one function, so a correction of a method or path (renew and delete are not
 * confirmed by the docs) is one line.
 */
import { holdsSharing } from '../readers/links';
import { isObject } from '../readers/shapes';
import type { SendAs } from '../transport/callOptions';
import type { AlbatoClient } from '../transport/client';
import { segment } from '../transport/wire';

const SHARINGS = '/credentials/grant-access-sharing';

/** A sharing's answer carries the link token: it never appears in an error of these calls. */
const SECRET_KEYS = ['token'];

const SHARING = { what: 'connection link', holds: holdsSharing };

/** POST /credentials/grant-access-sharing {partnerId, title} (end-user token). */
export async function createLink(
	client: AlbatoClient,
	partnerId: number,
	title: string,
	itemIndex: number,
): Promise<unknown> {
	return await client.request('POST', SHARINGS, {
		body: { partnerId, title },
		itemIndex,
		expect: SHARING,
		secretKeys: SECRET_KEYS,
	});
}

/** GET /credentials/grant-access-sharing/{id}: 0 waiting; `credentialId` set once connected. */
export async function getLink(
	client: AlbatoClient,
	sharingId: number,
	itemIndex: number,
): Promise<unknown> {
	return await client.request('GET', `${SHARINGS}/${segment(sharingId)}`, {
		itemIndex,
		expect: SHARING,
		secretKeys: SECRET_KEYS,
	});
}

/**
 * PUT /credentials/grant-access-sharing/{id}: a new token, 48 h again (method not confirmed by the
 * docs). Any 2xx is a renewal, even one without the sharing (204, `{id}`): the old token is gone.
 */
export async function renewLink(
	client: AlbatoClient,
	sharingId: number,
	itemIndex: number,
): Promise<unknown> {
	return await client.request('PUT', `${SHARINGS}/${segment(sharingId)}`, {
		itemIndex,
		secretKeys: SECRET_KEYS,
	});
}

/** DELETE /credentials/grant-access-sharing/{id}: `200 {id}` or `204` with no body, both fine. */
export async function deleteLink(
	client: AlbatoClient,
	sharingId: number,
	itemIndex: number,
): Promise<unknown> {
	return await client.request('DELETE', `${SHARINGS}/${segment(sharingId)}`, {
		itemIndex,
		secretKeys: SECRET_KEYS,
	});
}

/**
 * POST /credentials/{partnerId}/{credentialId}/update-user-data, no body. In partner mode sent
 * as `masterBearer` (the master token as `Bearer`, as Albato's page shows) or as the end user.
 */
export async function updateUserData(
	client: AlbatoClient,
	partnerId: number,
	credentialId: number,
	sendAs: SendAs,
	itemIndex: number,
): Promise<unknown> {
	return await client.request(
		'POST',
		`/credentials/${segment(partnerId)}/${segment(credentialId)}/update-user-data`,
		{ itemIndex, sendAs, expect: { what: 'update status', holds: isObject } },
	);
}
