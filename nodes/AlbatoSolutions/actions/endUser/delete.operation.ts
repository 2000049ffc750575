import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { deleteUser, getUserProfile } from '../../../shared/api/endUser';
import type { AlbatoClient } from '../../../shared/transport/client';
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

const confirmDelete: Confirmation = {
	name: 'confirmDelete',
	displayName: 'Confirm: Delete Permanently',
	consequence:
		'deleting the end user removes them for good, with all their installations, connections and tokens',
};

export const description: INodeProperties[] = [confirmProperty(confirmDelete)];

/**
 * POST /wl/{partner}/delete-user, only with the confirmation on. Afterwards every cached token of the
 * user is forgotten, so no later call (of this or another execution in this process) sends one.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partner = partnerOf(this, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	requireConfirmation(this, confirmDelete, itemIndex);
	try {
		if (client.preview) {
			// Read, not deleted: an unknown end user fails as the delete would.
			await getUserProfile(client, partner, endUserId, { transactions: false, itemIndex });
			return { endUserId, deleted: true, preview: true };
		}
		await deleteUser(client, partner, endUserId, itemIndex);
	} catch (error) {
		if (outcomeOf(error) !== 'notFound') throw error as Error;
		throw new NodeOperationError(
			this.getNode(),
			`End user "${endUserId}" does not exist: nothing was deleted`,
			{
				itemIndex,
				description:
					'The service answered 404 for this End User ID (never created, or already deleted, e.g. by an earlier delivery of the same webhook).',
			},
		);
	} finally {
		if (!client.preview) partner.forget(endUserId);
	}
	return { endUserId, deleted: true };
}
