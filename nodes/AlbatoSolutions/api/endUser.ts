import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { AlbatoClient } from '../transport';
import type { PartnerSession } from '../transport/endUserTokens';

/** The End User resource speaks for the partner: it needs the Albato Partner API credential. */
export function partnerOf(ctx: IExecuteFunctions, client: AlbatoClient, itemIndex: number): PartnerSession {
	if (!client.partner) {
		throw new NodeOperationError(ctx.getNode(), 'End User needs the Albato Partner API credential', {
			itemIndex,
			description: 'Set Authentication to "Partner API" and choose an Albato Partner API credential (Base URL, Partner Name, Master Token)',
		});
	}
	return client.partner;
}

/** POST /wl/{partner}/add-user */
export async function addUser(client: AlbatoClient, partner: PartnerSession, body: IDataObject, itemIndex: number): Promise<unknown> {
	return await client.request('POST', partner.path('add-user'), { body, itemIndex, asPartner: true });
}

/** POST /wl/{partner}/get-user-session-token, looked up by e-mail (one page's example): never cached. */
export async function tokenByEmail(client: AlbatoClient, partner: PartnerSession, email: string, itemIndex: number): Promise<unknown> {
	return await client.request('POST', partner.path('get-user-session-token'), { body: { email }, itemIndex, asPartner: true });
}

export const includeTokenOption: INodeProperties = {
	displayName: 'Include Token in Output (Secret)',
	name: 'includeToken',
	type: 'boolean',
	default: false,
	description:
		"Whether to put the end user's token in the output. Anyone who can open this execution can then act as the end user until the token expires; leave off unless the next node needs it.",
};

/** `validUntil` as ISO text for outputs, when known. */
export const isoOrNull = (epochMs: number | undefined) => (epochMs === undefined ? null : new Date(epochMs).toISOString());
