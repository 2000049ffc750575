import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { ownCredentialMetadata } from '../../../shared/api/ownConnection';
import { normalizeSchema } from '../../../shared/readers/partnerSchema';
import type { AlbatoClient } from '../../../shared/transport/client';
import { ownPartnerName, ownPartnerNameProperty } from './ownPartnerName';

export const option = {
	name: 'Get Own Connection Fields',
	action: 'Get the fields of a connection to your system',
	description: 'The fields a connection to your own app takes',
};

export const effect = 'read';

export const description: INodeProperties[] = [ownPartnerNameProperty];

/**
 * GET /wl/{partner}/get-own-credential-metadata as the end user:
 * `{fields: [{id, type, label, secret, allowedValues}]}`.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partnerName = ownPartnerName(this, client, itemIndex);
	const fields = normalizeSchema(await ownCredentialMetadata(client, partnerName, itemIndex));
	return {
		fields: fields.map(({ id, label, type, secret, allowedValues }) => ({
			id,
			label,
			type,
			secret,
			...(allowedValues ? { allowedValues } : {}),
		})) as IDataObject[],
	};
}
