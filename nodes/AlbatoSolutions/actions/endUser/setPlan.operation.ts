import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getUserProfile, setUserPlan } from '../../../shared/api/endUser';
import type { AlbatoClient } from '../../../shared/transport/client';
import { toId } from '../params';
import { partnerOf } from './partnerSession';

export const option = {
	name: 'Set Plan',
	action: 'Set the billing plan of an end user',
	description: 'Put the end user on one of your billing plans',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Plan ID',
		name: 'planId',
		type: 'string',
		required: true,
		default: '',
		description:
			'The billing plan to put the end user on (the ID of a plan in your Albato partner panel)',
	},
];

/** POST /wl/{partner}/set-user-plan with End User ID and the plan (a whole number, checked first). */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partner = partnerOf(this, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	const planId = toId(this, this.getNodeParameter('planId', itemIndex, ''), 'Plan ID', itemIndex);
	if (client.preview) {
		// An unknown end user fails here as set-user-plan would.
		await getUserProfile(client, partner, endUserId, { transactions: false, itemIndex });
		return { endUserId, planId, planSet: true, preview: true };
	}
	await setUserPlan(client, partner, endUserId, planId, itemIndex);
	return { endUserId, planId, planSet: true };
}
