import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { tokenFromResponse, withoutTokens } from '../../helpers/endUserToken';
import type { AlbatoClient } from '../../transport';
import { addUser, includeTokenOption, isoOrNull, partnerOf } from './endUserApi';

export const description: INodeProperties[] = [
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			includeTokenOption,
			{
				displayName: 'Language',
				name: 'language',
				type: 'string',
				default: '',
				placeholder: 'en',
				description: "The end user's interface language (a two-letter code)",
			},
			{
				displayName: 'Timezone Offset (Minutes)',
				name: 'timezoneOffset',
				type: 'number',
				default: 0,
				description: "The end user's offset from UTC in minutes, as Albato's docs send it (e.g. -180)",
			},
		],
	},
];

interface Options {
	includeToken?: boolean;
	language?: string;
	timezoneOffset?: number;
}

/**
 * POST /wl/{partner}/add-user with End User ID as the partner's own id. The token the service may
 * return is kept for the next nodes (no token call follows), and left out of the output unless asked.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partner = partnerOf(this, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as Options;
	const body: IDataObject = { id: endUserId };
	if (options.timezoneOffset !== undefined) {
		const offset = options.timezoneOffset;
		if (!Number.isInteger(offset) || offset < -720 || offset > 840) {
			throw new NodeOperationError(this.getNode(), `Options → Timezone Offset (Minutes) must be a whole number from -720 to 840, got ${String(offset)}`, { itemIndex });
		}
		body.timezoneOffset = offset;
	}
	if (options.language !== undefined && options.language.trim() !== '') {
		const language = options.language.trim();
		if (!/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/.test(language)) {
			throw new NodeOperationError(this.getNode(), `Options → Language must be a language code such as "en", got "${language}"`, { itemIndex });
		}
		body.language = language;
	}
	const data = await addUser(client, partner, body, itemIndex);
	partner.remember(endUserId, data);
	const minted = tokenFromResponse(data);
	return {
		endUserId,
		...withoutTokens(data),
		...(options.includeToken ? { token: minted?.token ?? null, tokenValidUntil: isoOrNull(minted?.expiresAt) } : {}),
	};
}
