import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { deleteLink, getLink } from '../../../shared/api/links';
import type { AlbatoClient } from '../../../shared/transport/client';
import { outcomeOf } from '../../../shared/transport/errors';
import {
	type Confirmation,
	confirmProperty,
} from '../../../shared/descriptions/common.descriptions';
import { requireConfirmation } from '../params';
import { sharingIdParameter, sharingIdProperty } from './linkParams';

export const option = {
	name: 'Delete Link',
	action: 'Delete a connection link',
	description: 'Revoke a connection link; a connection already made with it stays',
};

export const effect = 'write';

const confirmDeleteLink: Confirmation = {
	name: 'confirmDeleteLink',
	displayName: 'Confirm Delete Link',
	consequence:
		'deleting the link stops it working for good (a connection already made with it stays)',
};

export const description: INodeProperties[] = [
	sharingIdProperty,
	confirmProperty(confirmDeleteLink),
];

/**
 * DELETE /credentials/grant-access-sharing/{id}: `200 {id}` and `204` with no body both mean
 * deleted.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await removeLink(this, itemIndex, async (sharingId) => {
		await deleteLink(client, sharingId, itemIndex);
	});
}

/** Reads the link instead: an unknown one fails as the delete would. */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	return await removeLink(this, itemIndex, async (sharingId) => {
		await getLink(client, sharingId, itemIndex);
	});
}

async function removeLink(
	ctx: IExecuteFunctions,
	itemIndex: number,
	send: (sharingId: number) => Promise<void>,
) {
	const sharingId = sharingIdParameter(ctx, itemIndex);
	requireConfirmation(ctx, confirmDeleteLink, itemIndex);
	try {
		await send(sharingId);
	} catch (error) {
		if (outcomeOf(error) !== 'notFound') throw error as Error;
		throw new NodeOperationError(
			ctx.getNode(),
			`Link ${sharingId} does not exist (already deleted?): nothing was deleted`,
			{
				itemIndex,
				description:
					"The service answered 404 for this Sharing ID: never created, another end user's, or already deleted (e.g. by an earlier run whose answer was lost).",
			},
		);
	}
	return { sharingId, deleted: true };
}
