import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { deleteUser, getUserProfile } from '../../../shared/api/endUser';
import type { AlbatoClient } from '../../../shared/transport/client';
import type { PartnerSession } from '../../../shared/transport/partnerSession';
import { outcomeOf } from '../../../shared/transport/errors';
import {
	type Confirmation,
	confirmProperty,
} from '../../../shared/descriptions/common.descriptions';
import { requireConfirmation } from '../params';
import { partnerOf } from './needsPartner';

export const option = {
	name: 'Delete',
	action: 'Delete an end user',
	description:
		'Delete the end user with their installations and tokens (irreversible; needs confirmation)',
};

export const effect = 'write';

const confirmDelete: Confirmation = {
	name: 'confirmDelete',
	displayName: 'Confirm: Delete Permanently',
	consequence:
		'deleting the end user removes them for good, with all their installations, connections and tokens',
};

export const description: INodeProperties[] = [confirmProperty(confirmDelete)];

/**
 * POST /wl/{partner}/delete-user, only with the confirmation on. Afterwards every cached token of
 * the user is forgotten, so no later call (of this or another execution in this process) sends one.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await deleteEndUser(this, client, itemIndex, async (partner, endUserId) => {
		try {
			await deleteUser(client, partner, endUserId, itemIndex);
		} finally {
			partner.forget(endUserId);
		}
	});
}

/** Reads the profile instead: an unknown end user fails as the delete would. */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await deleteEndUser(this, client, itemIndex, async (partner, endUserId) => {
		await getUserProfile(client, partner, endUserId, { transactions: false, itemIndex });
	});
}

async function deleteEndUser(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	itemIndex: number,
	send: (partner: PartnerSession, endUserId: string) => Promise<void>,
) {
	const partner = partnerOf(ctx, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	requireConfirmation(ctx, confirmDelete, itemIndex);
	try {
		await send(partner, endUserId);
	} catch (error) {
		if (outcomeOf(error) !== 'notFound') throw error as Error;
		throw new NodeOperationError(
			ctx.getNode(),
			`End user "${endUserId}" does not exist: nothing was deleted`,
			{
				itemIndex,
				description:
					'The service answered 404 for this End User ID (never created, or already deleted, e.g. by an earlier delivery of the same webhook).',
			},
		);
	}
	return { endUserId, deleted: true };
}
