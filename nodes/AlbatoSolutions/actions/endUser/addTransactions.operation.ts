import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { addUserPlanTransactions } from '../../../shared/api/endUser';
import type { AlbatoClient } from '../../../shared/transport/client';
import { AlbatoApiError, outcomeOf, retold } from '../../../shared/transport/errors';
import { describeValue } from '../params';
import { partnerOf } from './partnerSession';

export const option = {
	name: 'Add Transactions',
	action: 'Add extra transactions to the plan of an end user',
	description:
		"Top up the end user's billing plan with paid extra transactions (a multiple of 100; needs confirmation)",
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
	{
		displayName: 'Confirm: Add Paid Transactions',
		name: 'confirmAddTransactions',
		type: 'boolean',
		default: false,
		description:
			'Whether you confirm buying these extra transactions for the end user (Albato bills the partner for them; a repeat adds them again). While off, the item fails and nothing is sent.',
	},
];

/**
 * POST /wl/{partner}/add-user-plan-transactions {id, count}, only with the confirmation on. Count is
 * checked first (a positive multiple of 100). Never repeated by the transport (a POST that spends money).
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partner = partnerOf(this, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	const count = transactionCount(this, itemIndex);
	if (this.getNodeParameter('confirmAddTransactions', itemIndex, false) !== true) {
		throw new NodeOperationError(
			this.getNode(),
			`Confirm: Add Paid Transactions is off: no transactions were added for end user "${endUserId}"`,
			{
				itemIndex,
				description:
					'Extra transactions are billed to your partner account and a repeat adds them again. Turn on "Confirm: Add Paid Transactions" to add them; nothing was sent.',
			},
		);
	}
	try {
		await addUserPlanTransactions(client, partner, endUserId, count, itemIndex);
	} catch (error) {
		if (outcomeOf(error) === 'notFound') {
			throw new NodeOperationError(
				this.getNode(),
				`End user "${endUserId}" does not exist: no transactions were added`,
				{
					itemIndex,
					description:
						'The service answered 404 for this End User ID (never created, or deleted). Check End User ID.',
				},
			);
		}
		if (error instanceof AlbatoApiError && error.rejectsValues) {
			throw retold(this.getNode(), error, {
				message: error.message,
				description:
					`${error.description ?? ''} Albato adds transactions only to a user with an active billing plan: put the user on a plan first (End User → Set Plan). A blocked user has no active plan.`.trim(),
				itemIndex,
			});
		}
		throw error as Error;
	}
	return { endUserId, transactionsAdded: count };
}

/** Transactions to Add: a whole number greater than 0 and a multiple of 100, or an error saying why. */
function transactionCount(ctx: IExecuteFunctions, itemIndex: number): number {
	const raw = ctx.getNodeParameter('transactionCount', itemIndex, undefined) as unknown;
	const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
	if (typeof value === 'number' && Number.isInteger(value) && value > 0 && value % 100 === 0)
		return value;
	throw new NodeOperationError(
		ctx.getNode(),
		`Transactions to Add must be greater than 0 and a multiple of 100 (Albato's rule), got ${describeValue(raw)}`,
		{
			itemIndex,
			description:
				'Albato adds extra transactions in hundreds: e.g. 100, 500 or 2000. Nothing was sent.',
		},
	);
}
