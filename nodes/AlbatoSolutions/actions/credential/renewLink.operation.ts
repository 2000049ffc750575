import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { renewLink } from '../../../shared/api/links';
import { sharingOf } from '../../../shared/readers/links';
import type { AlbatoClient } from '../../../shared/transport/client';
import { freshExpiry, sharingIdParameter, sharingIdProperty, sharingOutput } from './linkParams';

export const description: INodeProperties[] = [sharingIdProperty];

/** PUT /credentials/grant-access-sharing/{id}: a new token (the old link stops working), 48 h again. */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const sharingId = sharingIdParameter(this, itemIndex);
	const sharing = sharingOf(await renewLink(client, sharingId, itemIndex));
	return {
		...sharingOutput(this, sharing, itemIndex, { withLink: true, sentId: sharingId }),
		...freshExpiry(sharing),
	};
}
