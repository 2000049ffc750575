import type { IDataObject } from 'n8n-workflow';

import { planById, plansOf } from '../readers/plans';
import { holdsList } from '../readers/shapes';
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
		sendAs: 'partner',
	});
}

/**
 * POST /wl/{partner}/get-user-session-token, looked up by e-mail (one page's example): never
 * cached.
 */
export async function tokenByEmail(
	client: AlbatoClient,
	partner: PartnerSession,
	email: string,
	itemIndex: number,
): Promise<unknown> {
	return await client.request('POST', partner.path('get-user-session-token'), {
		body: { email },
		itemIndex,
		sendAs: 'partner',
		effect: 'readOnce',
	});
}

/**
 * POST /wl/{partner}/get-user-profile (`?expand=transactions` adds usage; what it adds is not
 * documented).
 */
export async function getUserProfile(
	client: AlbatoClient,
	partner: PartnerSession,
	id: string,
	{ transactions, itemIndex }: { transactions: boolean; itemIndex?: number },
): Promise<unknown> {
	return await client.request('POST', partner.path('get-user-profile'), {
		body: { id },
		query: transactions ? { expand: 'transactions' } : undefined,
		itemIndex,
		sendAs: 'partner',
		effect: 'read',
		about: 'endUser',
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
		sendAs: 'partner',
		about: 'endUser',
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
		sendAs: 'partner',
		about: 'endUser',
	});
}

// ------------------------------------------------------------------ billing

/**
 * GET /wl/{partner}/list-plans, or POST when the service answers 405 to GET (Albato's page says
 * "GET | POST"; its curl sends a GET). Read once per client (= per execution, per editor call): the
 * plans a Set Plan of many items checks against, and the plan an End User → Get enriches with.
 */
export async function listPlans(
	client: AlbatoClient,
	partner: PartnerSession,
	itemIndex?: number,
): Promise<unknown> {
	let pending = planLists.get(client);
	if (!pending) {
		pending = readPlans(client, partner, itemIndex);
		planLists.set(client, pending);
		// A failed read is not kept: the next item asks again.
		pending.catch(() => planLists.delete(client));
	}
	return await pending;
}

/**
 * The plan a profile names, from list-plans (read once per client); undefined when the profile names
 * none (then list-plans is not read) or the plan is not listed.
 */
export async function profilePlan(
	client: AlbatoClient,
	partner: PartnerSession,
	planId: unknown,
	itemIndex?: number,
) {
	if (planId === undefined || planId === null || planId === '') return undefined;
	return planById(plansOf(await listPlans(client, partner, itemIndex)), planId);
}

/** One list-plans read per client; dropped with the client. */
const planLists = new WeakMap<AlbatoClient, Promise<unknown>>();

const PLANS = { what: 'billing plans', holds: (data: unknown) => holdsList(data) };

async function readPlans(
	client: AlbatoClient,
	partner: PartnerSession,
	itemIndex: number | undefined,
): Promise<unknown> {
	return await client.readByGetOrPost(partner.path('list-plans'), {
		itemIndex,
		sendAs: 'partner',
		expect: PLANS,
	});
}

/**
 * POST /wl/{partner}/block-user-plan (pauses everything of the user; the operation asks for
 * confirmation first).
 */
export async function blockUserPlan(
	client: AlbatoClient,
	partner: PartnerSession,
	id: string,
	itemIndex: number,
): Promise<unknown> {
	return await client.request('POST', partner.path('block-user-plan'), {
		body: { id },
		itemIndex,
		sendAs: 'partner',
		about: 'endUser',
	});
}

/**
 * POST /wl/{partner}/add-user-plan-transactions (count > 0, a multiple of 100; spends money: never
 * repeated).
 */
export async function addUserPlanTransactions(
	client: AlbatoClient,
	partner: PartnerSession,
	id: string,
	count: number,
	itemIndex: number,
): Promise<unknown> {
	return await client.request('POST', partner.path('add-user-plan-transactions'), {
		body: { id, count },
		itemIndex,
		sendAs: 'partner',
		about: 'endUser',
	});
}
