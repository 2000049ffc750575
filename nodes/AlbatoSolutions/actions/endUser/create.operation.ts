import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { addUser, getUserProfile } from '../../../shared/api/endUser';
import { tokenFromResponse } from '../../../shared/readers/mintedToken';
import type { AlbatoClient } from '../../../shared/transport/client';
import { AlbatoApiError, retold } from '../../../shared/transport/errors';
import { optionsCollection } from '../../../shared/descriptions/common.descriptions';
import { numberInRange, UTC_OFFSET_MINUTES } from '../params';
import { endUserItem, profileFieldsOf } from './endUserItem';
import { partnerOf } from './needsPartner';
import { includeTokenOption } from './tokenOutput';

export const option = {
	name: 'Create',
	action: 'Create an end user',
	description: 'Create an Albato end user for one of your customers (End User ID)',
};

export const description: INodeProperties[] = [
	optionsCollection([
		{
			displayName: 'If the User Exists',
			name: 'ifExists',
			type: 'options',
			default: 'fail',
			options: [
				{
					name: 'Continue With the Existing User',
					value: 'useExisting',
					description:
						'When add-user is refused (4xx) but the user has a token, output the user with created: false and the fields of its profile (albatoUserId, email, planId, trxLimit…), as for a new user. Safe for webhooks that are delivered twice.',
				},
				{ name: 'Fail', value: 'fail', description: "Report the service's error" },
			],
		},
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
			typeOptions: { minValue: UTC_OFFSET_MINUTES.min, maxValue: UTC_OFFSET_MINUTES.max },
			default: 0,
			description:
				"The end user's offset from UTC in minutes, as Albato's docs send it (e.g. -180)",
		},
	]),
];

interface Options {
	ifExists?: 'fail' | 'useExisting';
	includeToken?: boolean;
	language?: string;
	timezoneOffset?: number;
}

/**
 * POST /wl/{partner}/add-user with End User ID as the partner's own id. The token the service may
 * return is kept for the next nodes (no token call follows), and left out of the output unless
 * asked.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partner = partnerOf(this, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as Options;
	const body: IDataObject = { id: endUserId };
	if (options.timezoneOffset !== undefined) {
		body.timezoneOffset = numberInRange(
			this,
			options.timezoneOffset,
			'Options → Timezone Offset (Minutes)',
			UTC_OFFSET_MINUTES,
			itemIndex,
		);
	}
	if (options.language !== undefined && options.language.trim() !== '') {
		const language = options.language.trim();
		if (!/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/.test(language)) {
			throw new NodeOperationError(
				this.getNode(),
				`Options → Language must be a language code such as "en", got "${language}"`,
				{ itemIndex },
			);
		}
		body.language = language;
	}
	if (client.preview) return await previewCreate(this, partner, endUserId, options, itemIndex);
	const added = await addUser(client, partner, body, itemIndex).then(
		(data) => ({ data }),
		(error: unknown) => ({ error }),
	);
	if ('error' in added) {
		if (!refusedAsExisting(added.error)) throw added.error;
		if (options.ifExists !== 'useExisting')
			throw added.error.outcome === 'refused' || added.error.answer === 'declined'
				? existsHint(this, added.error, itemIndex)
				: added.error;
		// Refused: if the service has a token for this id, the user exists (e.g. a webhook delivered
		// twice).
		const token = await partner.token(endUserId, { itemIndex }).then(
			(value) => value,
			() => undefined,
		);
		if (token === undefined) throw added.error;
		// The profile fills what add-user would have said (albatoUserId, email, plan, limit), so the
		// next node reads the same fields for a new and an existing customer.
		const profile = await getUserProfile(client, partner, endUserId, {
			transactions: false,
			itemIndex,
		});
		return endUserItem({
			endUserId,
			created: false,
			data: profileFieldsOf(profile),
			expiresAt: partner.expiresAt(endUserId),
			token: options.includeToken ? token : undefined,
		});
	}
	const data = added.data;
	partner.remember(endUserId, data);
	const minted = tokenFromResponse(data);
	return endUserItem({
		endUserId,
		created: true,
		data,
		expiresAt: minted?.expiresAt,
		token: options.includeToken ? (minted?.token ?? null) : undefined,
	});
}

/** A refused add-user may be a duplicate id: point at the option that continues with that user. */
function existsHint(ctx: IExecuteFunctions, error: AlbatoApiError, itemIndex: number) {
	return retold(ctx.getNode(), error, {
		message: error.message,
		description:
			`${error.description ?? ''} If this customer may already exist (e.g. a webhook delivered twice), set Options → If the User Exists to "Continue With the Existing User".`.trim(),
		itemIndex,
	});
}

/**
 * What a duplicate id plausibly gets (the docs do not say which): a 4xx other than 401/403/429, or
 * a 2xx saying `success: false` (Albato's general page: an error is the flag and a description).
 */
function refusedAsExisting(error: unknown): error is AlbatoApiError {
	if (!(error instanceof AlbatoApiError) || error.deniedAccess) return false;
	return error.outcome === 'refused' || error.outcome === 'notFound' || error.answer === 'declined';
}

/**
 * Preview: add-user is not sent; a token call (it changes nothing) tells whether the user exists.
 * An existing user is what the real run reports with "Continue With the Existing User", and
 * otherwise refused as add-user would refuse it.
 */
async function previewCreate(
	ctx: IExecuteFunctions,
	partner: ReturnType<typeof partnerOf>,
	endUserId: string,
	options: Options,
	itemIndex: number,
) {
	const token = await partner.token(endUserId, { itemIndex }).then(
		(value) => value,
		() => undefined,
	);
	if (token !== undefined && options.ifExists !== 'useExisting') {
		throw new NodeOperationError(
			ctx.getNode(),
			`End user "${endUserId}" already exists: add-user would be refused`,
			{
				itemIndex,
				description:
					'Preview: nothing was sent. If this customer may already exist, set Options → If the User Exists to "Continue With the Existing User".',
			},
		);
	}
	const item =
		token === undefined
			? endUserItem({
					endUserId,
					created: true,
					data: {},
					expiresAt: undefined,
					token: options.includeToken ? null : undefined,
				})
			: endUserItem({
					endUserId,
					created: false,
					expiresAt: partner.expiresAt(endUserId),
					token: options.includeToken ? token : undefined,
				});
	return { ...item, preview: true };
}
