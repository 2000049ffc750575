import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getLink } from '../../../shared/api/links';
import { linkExpiry, sharingOf } from '../../../shared/readers/links';
import type { AlbatoClient } from '../../../shared/transport/client';
import { sharingIdParameter, sharingIdProperty, sharingOutput } from './linkParams';

export const option = {
	name: 'Get Link Status',
	action: 'Get the status of a connection link',
	description: 'Whether the customer has connected, and the connection (credentialId) made',
};

export const effect = 'read';

export const description: INodeProperties[] = [sharingIdProperty];

/**
 * GET /credentials/grant-access-sharing/{id}. Connected once the service names the credential the
 * customer made (`credentialId`), whatever the status number says.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const sharingId = sharingIdParameter(this, itemIndex);
	const sharing = sharingOf(await getLink(client, sharingId, itemIndex));
	return {
		...sharingOutput(this, sharing, itemIndex, { withLink: false, sentId: sharingId }),
		...(sharing.dateCreated !== undefined && sharing.state !== 'connected'
			? linkExpiry(sharing.dateCreated, Date.now())
			: { expiresAt: null }),
	};
}
