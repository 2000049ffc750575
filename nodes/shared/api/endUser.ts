import type { IDataObject } from 'n8n-workflow';

import type { AlbatoClient } from '../transport/client';
import type { PartnerSession } from '../transport/partnerSession';

/** POST /wl/{partner}/add-user */
export async function addUser(
	client: AlbatoClient,
	partner: PartnerSession,
	body: IDataObject,
	itemIndex: number,
): Promise<unknown> {
	return await client.request('POST', partner.path('add-user'), {
		body,
		itemIndex,
		asPartner: true,
	});
}

/** POST /wl/{partner}/get-user-session-token, looked up by e-mail (one page's example): never cached. */
export async function tokenByEmail(
	client: AlbatoClient,
	partner: PartnerSession,
	email: string,
	itemIndex: number,
): Promise<unknown> {
	return await client.request('POST', partner.path('get-user-session-token'), {
		body: { email },
		itemIndex,
		asPartner: true,
	});
}
