import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { createLink } from '../../../shared/api/links';
import { sharingOf } from '../../../shared/readers/links';
import type { AlbatoClient } from '../../../shared/transport/client';
import { appIdProperty } from '../../../shared/descriptions/common.descriptions';
import { appIdParameter, textParameter } from '../params';
import { freshExpiry, sharingOutput } from './linkParams';

export const option = {
	name: 'Create Link',
	action: 'Create a connection link',
	description:
		'Create a one-time link (valid 48 h) that the customer opens to connect an app, e.g. with OAuth',
};

export const effect = 'write';

export const description: INodeProperties[] = [
	appIdProperty('linkPartnerId', 'The app the customer connects through the link'),
	{
		displayName: 'Connection Name',
		name: 'linkTitle',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Acme CRM',
		description: 'A name for the connection the customer makes with the link',
	},
];

/**
 * POST /credentials/grant-access-sharing as the end user. The output's `link` is the one place the
 * link token appears: it works once, for 48 hours.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partnerId = appIdParameter(this, 'linkPartnerId', itemIndex);
	const title = textParameter(this, 'linkTitle', 'Connection Name', itemIndex);
	const sharing = sharingOf(await createLink(client, partnerId, title, itemIndex));
	return {
		...sharingOutput(this, sharing, itemIndex, { withLink: true }),
		...freshExpiry(sharing),
	};
}

/** No sharing yet: no ID, no link. */
export async function preview(this: IExecuteFunctions, _client: AlbatoClient, itemIndex: number) {
	const partnerId = appIdParameter(this, 'linkPartnerId', itemIndex);
	const title = textParameter(this, 'linkTitle', 'Connection Name', itemIndex);
	const sharing = {
		...sharingOf({ partnerId, title, status: 0 }),
		id: undefined,
		state: 'waiting' as const,
	};
	return { ...sharingOutput(this, sharing, itemIndex, { withLink: false }), link: null };
}
