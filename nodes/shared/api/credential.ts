import type { IDataObject } from 'n8n-workflow';

import { normalizeSchema, type PartnerField } from '../readers/partnerSchema';
import { isObject } from '../readers/shapes';
import type { AlbatoClient } from '../transport/client';
import { segment } from '../transport/wire';

/**
 * A schema is an object or a list of fields; an empty body or `null` is no schema (not "no
 * fields").
 */
const PARTNER_META = {
	what: 'credential schema',
	holds: (data: unknown) => isObject(data) || Array.isArray(data),
};

/** GET /credentials/{partnerId}/meta, as the service sends it. */
export async function partnerMeta(
	client: AlbatoClient,
	partnerId: number,
	itemIndex?: number,
): Promise<unknown> {
	return await client.request('GET', `/credentials/${segment(partnerId)}/meta`, {
		itemIndex,
		expect: PARTNER_META,
	});
}

export async function partnerSchema(
	client: AlbatoClient,
	partnerId: number,
	itemIndex?: number,
): Promise<PartnerField[]> {
	return normalizeSchema(await partnerMeta(client, partnerId, itemIndex));
}

/**
 * POST /credentials/{partnerId} — creates a connection for the partner; the body's layout is the
 * caller's choice. `secrets`: the values of its secret fields, kept out of any error (a service
 * may quote what it refused).
 */
export async function createCredential(
	client: AlbatoClient,
	partnerId: number,
	body: IDataObject,
	secrets: string[],
	itemIndex?: number,
): Promise<unknown> {
	return await client.request('POST', `/credentials/${segment(partnerId)}`, {
		body,
		itemIndex,
		secrets,
	});
}
