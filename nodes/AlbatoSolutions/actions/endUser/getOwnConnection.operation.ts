import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getOwnCredential } from '../../../shared/api/ownConnection';
import { ownConnectionOutput } from '../../../shared/readers/ownConnectionAnswer';
import type { AlbatoClient } from '../../../shared/transport/client';
import { ownPartnerName, ownPartnerNameProperty } from './ownPartnerName';

export const option = {
	name: 'Get Own Connection',
	action: 'Get the connection of an end user to your system',
	description: "The end user's connection to your own app (secrets masked, listed in maskedFields)",
};

export const effect = 'read';

export const description: INodeProperties[] = [ownPartnerNameProperty];

/**
 * POST /wl/{partner}/get-own-credential as the end user: secrets come masked, listed in
 * `maskedFields`.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partnerName = ownPartnerName(this, client, itemIndex);
	return ownConnectionOutput(await getOwnCredential(client, partnerName, itemIndex));
}
