import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { addUserPlanTransactions, getUserProfile } from '../../../shared/api/endUser';
import {
	type Confirmation,
	confirmProperty,
} from '../../../shared/descriptions/common.descriptions';
import type { AlbatoClient } from '../../../shared/transport/client';
import type { PartnerSession } from '../../../shared/transport/partnerSession';
import { AlbatoApiError, outcomeOf, retold } from '../../../shared/transport/errors';
import { numberInRange, requireConfirmation } from '../params';
import { partnerOf } from './needsPartner';

export const option = {
	name: 'Add Transactions',
	action: 'Add extra transactions to the plan of an end user',
	description:
		"Top up the end user's billing plan with paid extra transactions (a multiple of 100; needs confirmation)",
};

export const effect = 'write';

const confirmAddTransactions: Confirmation = {
	name: 'confirmAddTransactions',
	displayName: 'Confirm: Add Paid Transactions',
	consequence: "Albato bills your partner account for the end user's extra transactions",
	afterwards: 'a repeat adds (and bills) them again',
};

/** Albato's rule for a top-up, in its own words. */
const TRANSACTION_COUNT = {
	min: 100,
	multipleOf: 100,
	fromText: true,
	words: "greater than 0 and a multiple of 100 (Albato's rule)",
};

export const description: INodeProperties[] = [
	{
		displayName: 'Transactions to Add',
		name: 'transactionCount',
		type: 'number',
		required: true,
		default: 1000,
		typeOptions: { minValue: 100, numberPrecision: 0 },
		description:
			"Extra transactions for the end user's billing plan: greater than 0 and a multiple of 100 (Albato's rule). Albato bills you for them.",
	},
	confirmProperty(confirmAddTransactions),
];

/**
 * POST /wl/{partner}/add-user-plan-transactions {id, count}, only with the confirmation on. Count
 * is checked first (a positive multiple of 100). Never repeated by the transport (a POST that
 * spends money).
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await addTransactions(this, client, itemIndex, async (partner, endUserId, count) => {
		await addUserPlanTransactions(client, partner, endUserId, count, itemIndex);
	});
}

/** Reads the profile instead: an unknown end user fails as the top-up would. */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await addTransactions(this, client, itemIndex, async (partner, endUserId) => {
		await getUserProfile(client, partner, endUserId, { transactions: false, itemIndex });
	});
}

async function addTransactions(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	itemIndex: number,
	send: (partner: PartnerSession, endUserId: string, count: number) => Promise<void>,
) {
	const partner = partnerOf(ctx, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	const count = transactionCount(ctx, itemIndex);
	requireConfirmation(
		ctx,
		confirmAddTransactions,
		itemIndex,
		`no transactions were added for end user "${endUserId}"`,
	);
	try {
		await send(partner, endUserId, count);
	} catch (error) {
		throw explained(ctx, error, endUserId, itemIndex);
	}
	return { endUserId, transactionsAdded: count };
}

/** A 404: no such end user; a refused count: the user has no active plan. */
function explained(ctx: IExecuteFunctions, error: unknown, endUserId: string, itemIndex: number) {
	if (outcomeOf(error) === 'notFound') {
		return new NodeOperationError(
			ctx.getNode(),
			`End user "${endUserId}" does not exist: no transactions were added`,
			{
				itemIndex,
				description:
					'The service answered 404 for this End User ID (never created, or deleted). Check End User ID.',
			},
		);
	}
	if (error instanceof AlbatoApiError && error.rejectsValues) {
		return retold(ctx.getNode(), error, {
			message: error.message,
			description:
				`${error.description ?? ''} Albato adds transactions only to a user with an active billing plan: put the user on a plan first (End User → Set Plan). A blocked user has no active plan.`.trim(),
			itemIndex,
		});
	}
	return error as Error;
}

/** Transactions to Add: a positive multiple of 100, or an error saying why, before any request. */
function transactionCount(ctx: IExecuteFunctions, itemIndex: number): number {
	const raw = ctx.getNodeParameter('transactionCount', itemIndex, undefined) as unknown;
	return numberInRange(ctx, raw, 'Transactions to Add', TRANSACTION_COUNT, itemIndex);
}
