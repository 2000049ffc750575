import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getUserProfile, listPlans, setUserPlan } from '../../../shared/api/endUser';
import { planById, plansOf } from '../../../shared/readers/plans';
import type { AlbatoClient } from '../../../shared/transport/client';
import { toId } from '../params';
import { partnerOf } from './needsPartner';

export const option = {
	name: 'Set Plan',
	action: 'Set the billing plan of an end user',
	description: 'Put the end user on one of your billing plans',
};

export const effect = 'write';

export const description: INodeProperties[] = [
	{
		// Was a string field: saved values ("23", 23 or an expression) are read the same way.
		displayName: 'Plan Name or ID',
		name: 'planId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getPlans' },
		required: true,
		default: '',
		description:
			'The billing plan to put the end user on. Albato\'s plans have no names: each is listed as "Plan 23: 10,000 transactions a month" (its ID and monthly transactions). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

/**
 * POST /wl/{partner}/set-user-plan with End User ID and the plan: a whole number (checked first),
 * then one of the partner's plans (list-plans, read once per execution). An unknown plan sends
 * nothing.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const { partner, endUserId, planId } = await readPlanChange(this, client, itemIndex);
	await setUserPlan(client, partner, endUserId, planId, itemIndex);
	return { endUserId, planId, planSet: true };
}

/** Reads the profile instead: an unknown end user fails here as set-user-plan would. */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const { partner, endUserId, planId } = await readPlanChange(this, client, itemIndex);
	await getUserProfile(client, partner, endUserId, { transactions: false, itemIndex });
	return { endUserId, planId, planSet: true };
}

/**
 * The plan's ID. Albato's plans have no names (list-plans gives an ID and the monthly
 * transactions), so a typed name is refused pointing at the list, and at Get Plans for an
 * expression.
 */
function readPlanId(ctx: IExecuteFunctions, itemIndex: number): number {
	const raw = ctx.getNodeParameter('planId', itemIndex, '');
	if (typeof raw === 'string' && raw.trim() !== '' && !/^\s*-?[\d.]+\s*$/.test(raw))
		throw new NodeOperationError(
			ctx.getNode(),
			`Plan "${raw.trim().slice(0, 40)}" is not a plan ID: Albato's plans have no names. Pick it from the list in Plan Name or ID (each shows its ID and monthly transactions), or list them with End User → Get Plans (planId)`,
			{ itemIndex },
		);
	return toId(ctx, raw, 'Plan ID', itemIndex);
}

/** The end user and the plan, checked against the partner's plans. */
async function readPlanChange(ctx: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partner = partnerOf(ctx, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	const planId = readPlanId(ctx, itemIndex);
	const plans = plansOf(await listPlans(client, partner, itemIndex));
	if (!planById(plans, planId)) {
		const known = plans.map((plan) => String(plan.id)).join(', ') || 'none';
		throw new NodeOperationError(
			ctx.getNode(),
			`Plan ID ${planId} is not one of your billing plans (planId must be one of: ${known}); nothing was sent`,
			{
				itemIndex,
				description: `Albato's list-plans lists the plans of your partner account: ${known}. Pick one in "Plan Name or ID", or fix the expression that gives it.`,
			},
		);
	}
	return { partner, endUserId, planId };
}
