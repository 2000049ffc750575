import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { blockUserPlan, getUserProfile } from '../../../shared/api/endUser';
import {
	type Confirmation,
	confirmProperty,
} from '../../../shared/descriptions/common.descriptions';
import type { AlbatoClient } from '../../../shared/transport/client';
import type { PartnerSession } from '../../../shared/transport/partnerSession';
import { outcomeOf } from '../../../shared/transport/errors';
import { requireConfirmation } from '../params';
import { partnerOf } from './needsPartner';

export const option = {
	name: 'Block',
	action: 'Block an end user',
	description:
		"Block the end user's billing plan: Albato pauses all their integrations and no new ones can start (needs confirmation)",
};

export const effect = 'write';

const confirmBlock: Confirmation = {
	name: 'confirmBlock',
	displayName: 'Confirm: Block the User',
	consequence:
		"blocking the end user's billing plan pauses all of their integrations and no new ones can start",
	afterwards: "is irreversible from n8n: see the docs' Billing section",
};

export const description: INodeProperties[] = [confirmProperty(confirmBlock)];

/**
 * POST /wl/{partner}/block-user-plan, only with the confirmation on. Albato's page: "When applied,
 * all user integrations are paused and no new integrations can be started."
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await block(this, client, itemIndex, async (partner, endUserId) => {
		await blockUserPlan(client, partner, endUserId, itemIndex);
	});
}

/** Reads the profile instead: an unknown end user fails as the block would. */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await block(this, client, itemIndex, async (partner, endUserId) => {
		await getUserProfile(client, partner, endUserId, { transactions: false, itemIndex });
	});
}

async function block(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	itemIndex: number,
	send: (partner: PartnerSession, endUserId: string) => Promise<void>,
) {
	const partner = partnerOf(ctx, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	requireConfirmation(ctx, confirmBlock, itemIndex, `end user "${endUserId}" was not blocked`);
	try {
		await send(partner, endUserId);
	} catch (error) {
		if (outcomeOf(error) !== 'notFound') throw error as Error;
		throw new NodeOperationError(
			ctx.getNode(),
			`End user "${endUserId}" does not exist: nothing was blocked`,
			{
				itemIndex,
				description:
					'The service answered 404 for this End User ID (never created, or deleted). Check End User ID.',
			},
		);
	}
	return { endUserId, blocked: true };
}
