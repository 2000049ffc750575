import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getUserProfile, profilePlan } from '../../../shared/api/endUser';
import { usedShareOf } from '../../../shared/readers/plans';
import type { PartnerSession } from '../../../shared/transport/partnerSession';
import { withoutTokens } from '../../../shared/readers/mintedToken';
import { idOf, isObject } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import { optionsCollection } from '../../../shared/descriptions/common.descriptions';
import { partnerOf } from './needsPartner';

export const option = {
	name: 'Get',
	action: 'Get an end user',
	description: "Get the end user's profile: Albato ID, e-mail, language, time zone, plan",
};

export const effect = 'read';

export const description: INodeProperties[] = [
	optionsCollection([
		{
			displayName: 'Include Plan Usage',
			name: 'includePlanUsage',
			type: 'boolean',
			default: false,
			description:
				"Whether to add the plan's monthlyTrx (from list-plans, read once per execution) and trxUsedShare = 1 − trxLimit / monthlyTrx, the share of the plan's monthly transactions no longer left (null when it cannot be told: no plan, or more left than the plan gives after extra transactions)",
		},
		{
			displayName: 'Include Transactions',
			name: 'includeTransactions',
			type: 'boolean',
			default: false,
			description:
				'Whether to ask for the usage too (?expand=transactions; what it adds is not documented, it is output as sent)',
		},
	]),
];

/**
 * POST /wl/{partner}/get-user-profile for End User ID. The profile's `id` is Albato's own numeric
 * id: it is output as `albatoUserId`, beside the partner's `endUserId`.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partner = partnerOf(this, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		includeTransactions?: boolean;
		includePlanUsage?: boolean;
	};
	const data = await getUserProfile(client, partner, endUserId, {
		transactions: options.includeTransactions === true,
		itemIndex,
	});
	const { id, ...profile } = withoutTokens(isObject(data) ? data : {}) as IDataObject;
	const item = { endUserId, albatoUserId: idOf(id) ?? null, ...profile };
	return options.includePlanUsage ? await withPlanUsage(client, partner, item, itemIndex) : item;
}

/**
 * Billing: the plan's `monthlyTrx` (list-plans, once per execution) and the share used,
 * 1 − trxLimit / monthlyTrx, when the profile names a plan and both numbers are known (see
 * usedShareOf).
 */
async function withPlanUsage(
	client: AlbatoClient,
	partner: PartnerSession,
	item: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const monthlyTrx = (await profilePlan(client, partner, item.planId, itemIndex))?.monthlyTrx;
	return {
		...item,
		monthlyTrx: monthlyTrx ?? null,
		trxUsedShare: usedShareOf(item.trxLimit, monthlyTrx) ?? null,
	};
}
