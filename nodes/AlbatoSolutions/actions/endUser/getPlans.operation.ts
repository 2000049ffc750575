import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listPlans } from '../../../shared/api/endUser';
import { plansOf } from '../../../shared/readers/plans';
import type { AlbatoClient } from '../../../shared/transport/client';
import { partnerOf } from './needsPartner';

export const option = {
	name: 'Get Plans',
	action: 'Get the billing plans',
	description:
		"List your partner account's billing plans with their monthly transactions (no end user needed)",
};

export const effect = 'read';

export const description: INodeProperties[] = [];

/**
 * GET /wl/{partner}/list-plans (POST when the service refuses GET with 405): one item per plan,
 * `{planId, monthlyTrx}`. The partner's plans, the same for every end user; End User ID is not
 * sent.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partner = partnerOf(this, client, itemIndex);
	const plans = plansOf(await listPlans(client, partner, itemIndex));
	return plans.map((plan) => ({ planId: plan.id, monthlyTrx: plan.monthlyTrx ?? null }));
}
