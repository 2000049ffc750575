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
		readsOnly: true,
	});
}

/** POST /wl/{partner}/get-user-profile (`?expand=transactions` adds usage; what it adds is not documented). */
export async function getUserProfile(
	client: AlbatoClient,
	partner: PartnerSession,
	id: string,
	{ transactions, itemIndex }: { transactions: boolean; itemIndex: number },
): Promise<unknown> {
	return await client.request('POST', partner.path('get-user-profile'), {
		body: { id },
		query: transactions ? { expand: 'transactions' } : undefined,
		itemIndex,
		asPartner: true,
		idempotent: true,
	});
}

/** POST /wl/{partner}/set-user-plan */
export async function setUserPlan(
	client: AlbatoClient,
	partner: PartnerSession,
	id: string,
	planId: number,
	itemIndex: number,
): Promise<unknown> {
	return await client.request('POST', partner.path('set-user-plan'), {
		body: { id, planId },
		itemIndex,
		asPartner: true,
	});
}

/** POST /wl/{partner}/delete-user (irreversible; the operation asks for confirmation first). */
export async function deleteUser(
	client: AlbatoClient,
	partner: PartnerSession,
	id: string,
	itemIndex: number,
): Promise<unknown> {
	return await client.request('POST', partner.path('delete-user'), {
		body: { id },
		itemIndex,
		asPartner: true,
	});
}
