import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ACCESS_TOKEN } from '../../../shared/constants';
import { checkPartnerName } from '../../../shared/transport/partnerIds';
import type { AlbatoClient } from '../../../shared/transport/client';

/**
 * With an Access Token credential the /wl path needs the partner's name; partner mode has it in its
 * credential.
 */
export const ownPartnerNameProperty: INodeProperties = {
	displayName: 'Partner Name',
	name: 'ownPartnerName',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. acme',
	description:
		'The {partner-name} of your /wl URLs (with the Partner API credential, its Partner Name is used)',
	displayOptions: { show: { authentication: [ACCESS_TOKEN] } },
};

/** The partner name for the own-connection path, checked before any request. */
export function ownPartnerName(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	itemIndex: number,
): string {
	if (client.partner) {
		client.partner.endUserId(itemIndex); // checked before any request
		return client.partner.partnerName;
	}
	const name = checkPartnerName(ctx.getNodeParameter('ownPartnerName', itemIndex, ''));
	if (!name) {
		throw new NodeOperationError(ctx.getNode(), 'Partner Name is not valid', {
			itemIndex,
			description:
				'Set Partner Name to the {partner-name} of your partner URLs (letters, digits, - _ . ~), e.g. acme',
		});
	}
	return name;
}
