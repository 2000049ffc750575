import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getUserProfile } from '../../../shared/api/endUser';
import { withoutTokens } from '../../../shared/readers/mintedToken';
import { idOf, isObject } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import { partnerOf } from './partnerSession';

export const option = {
	name: 'Get',
	action: 'Get an end user',
	description: "Get the end user's profile: Albato ID, e-mail, language, time zone, plan",
};

export const description: INodeProperties[] = [
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Include Transactions',
				name: 'includeTransactions',
				type: 'boolean',
				default: false,
				description:
					'Whether to ask for the usage too (?expand=transactions; what it adds is not documented, it is output as sent)',
			},
		],
	},
];

/**
 * POST /wl/{partner}/get-user-profile for End User ID. The profile's `id` is Albato's own numeric id:
 * it is output as `albatoUserId`, beside the partner's `endUserId`.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partner = partnerOf(this, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		includeTransactions?: boolean;
	};
	const data = await getUserProfile(client, partner, endUserId, {
		transactions: options.includeTransactions === true,
		itemIndex,
	});
	const { id, ...profile } = withoutTokens(isObject(data) ? data : {}) as IDataObject;
	return { endUserId, albatoUserId: idOf(id) ?? null, ...profile };
}
