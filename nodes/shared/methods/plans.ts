import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listPlans } from '../api/endUser';
import { plansOf } from '../readers/plans';
import { load } from './load';

/** 100000 → "100,000" (the same in every locale of the editor). */
const grouped = (count: number) => String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * The partner's billing plans (list-plans, master token; End User ID not needed) as
 * "Plan 23: 10,000 transactions a month". Partner API credential only.
 */
export async function getPlans(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await load(this, 'the billing plans', async (client) => {
		if (!client.partner) {
			throw new NodeOperationError(
				this.getNode(),
				'Billing plans need the Albato Partner API credential',
				{
					description:
						'Set Authentication to "Partner API" and choose an Albato Partner API credential: list-plans is called with the master token',
				},
			);
		}
		const plans = plansOf(await listPlans(client, client.partner));
		return plans.map((plan) => ({
			name: `Plan ${String(plan.id)}: ${
				plan.monthlyTrx === undefined
					? 'monthly transactions not given'
					: `${grouped(plan.monthlyTrx)} transactions a month`
			}`,
			value: plan.id,
			description:
				plan.monthlyTrx === undefined ? undefined : `monthlyTrx: ${String(plan.monthlyTrx)}`,
		}));
	});
}
