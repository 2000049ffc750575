import type { INodeProperties } from 'n8n-workflow';

import { normalizeSchema, type PartnerField } from '../helpers/partnerSchema';
import type { AlbatoClient } from '../transport';
import { segment } from '../transport';

export const partnerIdProperty: INodeProperties = {
	displayName: 'Partner ID',
	name: 'partnerId',
	type: 'number',
	default: 0,
	required: true,
	typeOptions: { minValue: 1 },
	description: 'The partner (connected app) the credential is for, e.g. 201',
};

/** GET /credentials/{partnerId}/meta, as the service sends it. */
export async function partnerMeta(client: AlbatoClient, partnerId: number, itemIndex?: number): Promise<unknown> {
	return await client.request('GET', `/credentials/${segment(partnerId)}/meta`, { itemIndex });
}

export async function partnerSchema(client: AlbatoClient, partnerId: number, itemIndex?: number): Promise<PartnerField[]> {
	return normalizeSchema(await partnerMeta(client, partnerId, itemIndex));
}
