import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getLink, renewLink } from '../../../shared/api/links';
import { sharingOf } from '../../../shared/readers/links';
import type { AlbatoClient } from '../../../shared/transport/client';
import { freshExpiry, sharingIdParameter, sharingIdProperty, sharingOutput } from './linkParams';

export const option = {
	name: 'Renew Link',
	action: 'Renew a connection link',
	description:
		"A new link (new token, 48 h again) for a link not used yet. The customer's current link stops working at once.",
};

export const effect = 'write';

export const description: INodeProperties[] = [sharingIdProperty];

/**
 * PUT /credentials/grant-access-sharing/{id}: a new token (the old link stops working), 48 h again.
 * An answer without the token (204, `{id}`) renewed all the same: the link is read for it.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const sharingId = sharingIdParameter(this, itemIndex);
	let sharing = sharingOf(await renewLink(client, sharingId, itemIndex));
	if (sharing.token === undefined) sharing = sharingOf(await getLink(client, sharingId, itemIndex));
	if (sharing.token === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			`Link ${sharingId} was renewed, but neither the answer nor a read of the link holds its new token: no link can be made`,
			{
				itemIndex,
				description:
					"The old link no longer works. Send the customer a new one: Credential → Create Link (the service's answer to it holds the token).",
			},
		);
	}
	return {
		...sharingOutput(this, sharing, itemIndex, { withLink: true, sentId: sharingId }),
		...freshExpiry(sharing),
	};
}

/** Reads the link, not renewed: an unknown link fails as the renewal would. */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const sharingId = sharingIdParameter(this, itemIndex);
	const current = sharingOf(await getLink(client, sharingId, itemIndex));
	// The new link is not known yet.
	return {
		...sharingOutput(this, current, itemIndex, { withLink: false, sentId: sharingId }),
		link: null,
	};
}
