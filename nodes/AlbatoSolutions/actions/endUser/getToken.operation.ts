import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { tokenByEmail } from '../../../shared/api/endUser';
import { tokenFromResponse } from '../../../shared/readers/mintedToken';
import type { AlbatoClient } from '../../../shared/transport/client';
import { optionsCollection } from '../../../shared/descriptions/common.descriptions';
import { partnerOf } from './needsPartner';
import { includeTokenOption, isoOrNull } from './tokenOutput';

export const option = {
	name: 'Get Token',
	action: 'Get the token of an end user',
	description: "Get the end user's token, for nodes that need it",
};

export const effect = 'read';

export const description: INodeProperties[] = [
	optionsCollection([
		includeTokenOption,
		{
			displayName: 'Look Up By',
			name: 'lookUpBy',
			type: 'options',
			default: 'id',
			options: [
				{
					name: 'Email',
					value: 'email',
					description:
						"Send End User ID as the user's email, as one page's example does (always asks the service)",
				},
				{
					name: 'End User ID',
					value: 'id',
					description:
						"Send End User ID as the user's ID, as most of Albato's pages do (uses the token cache)",
				},
			],
		},
	]),
];

interface Options {
	includeToken?: boolean;
	lookUpBy?: 'id' | 'email';
}

/**
 * The end user's token, for a next node that needs it (e.g. an HTTP Request to another Albato
 * endpoint). Without the opt-in the output only says the token exists and until when.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partner = partnerOf(this, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as Options;
	let token: string | undefined;
	let expiresAt: number | undefined;
	if (options.lookUpBy === 'email') {
		if (!/^[^\s@]+@[^\s@]+$/.test(endUserId)) {
			throw new NodeOperationError(
				this.getNode(),
				`End User ID must be an e-mail address when Look Up By is Email, got "${endUserId}"`,
				{ itemIndex },
			);
		}
		const minted = tokenFromResponse(await tokenByEmail(client, partner, endUserId, itemIndex));
		partner.hide(minted?.token);
		token = minted?.token;
		expiresAt = minted?.expiresAt;
	} else {
		token = await partner.token(endUserId, { itemIndex });
		expiresAt = partner.expiresAt(endUserId);
	}
	return {
		endUserId,
		hasToken: token !== undefined,
		tokenValidUntil: isoOrNull(expiresAt),
		...(options.includeToken ? { token: token ?? null } : {}),
	};
}
