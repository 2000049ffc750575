/**
 * The partner's own connection (Albato's Embedded API pages), always with the end user's token:
 * POST /wl/{partner}/upsert-own-credential, get-own-credential, get-own-credential-metadata.
 */
import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../readers/shapes';
import type { AlbatoClient } from '../transport/client';

/**
 * `/wl/{partner}/<endpoint>`: the credential's Partner Name in partner mode, else the one given.
 */
function ownPath(client: AlbatoClient, partnerName: string, endpoint: string): string {
	return client.partner
		? client.partner.path(endpoint)
		: `/wl/${encodeURIComponent(partnerName)}/${endpoint}`;
}

const ANSWER = { what: 'own connection', holds: isObject };

/** POST …/upsert-own-credential {fields}: the values sent are secrets of this call. */
export async function upsertOwnCredential(
	client: AlbatoClient,
	partnerName: string,
	fields: IDataObject,
	itemIndex: number,
): Promise<unknown> {
	const secrets = Object.values(fields)
		.filter((value) => typeof value === 'string' || typeof value === 'number')
		.map(String);
	return await client.request('POST', ownPath(client, partnerName, 'upsert-own-credential'), {
		body: { fields },
		itemIndex,
		expect: ANSWER,
		secrets,
	});
}

/** POST …/get-own-credential (the page's method; the emulator also takes GET). */
export async function getOwnCredential(
	client: AlbatoClient,
	partnerName: string,
	itemIndex?: number,
): Promise<unknown> {
	return await client.request('POST', ownPath(client, partnerName, 'get-own-credential'), {
		itemIndex,
		expect: ANSWER,
		effect: 'read',
	});
}

/**
 * …/get-own-credential-metadata (GET | POST, the page says; its example POSTs):
 * `{fields: [{id, type, label, allowedValues?}]}`.
 */
export async function ownCredentialMetadata(
	client: AlbatoClient,
	partnerName: string,
	itemIndex?: number,
): Promise<unknown> {
	return await client.readByGetOrPost(ownPath(client, partnerName, 'get-own-credential-metadata'), {
		itemIndex,
		expect: {
			what: 'own connection fields',
			holds: (data) => isObject(data) || Array.isArray(data),
		},
	});
}
