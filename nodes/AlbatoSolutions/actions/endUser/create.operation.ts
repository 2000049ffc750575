import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { addUser, getUserProfile } from '../../../shared/api/endUser';
import { tokenFromResponse } from '../../../shared/readers/mintedToken';
import type { AlbatoClient } from '../../../shared/transport/client';
import type { PartnerSession } from '../../../shared/transport/partnerSession';
import { AlbatoApiError, retold } from '../../../shared/transport/errors';
import { optionsCollection } from '../../../shared/descriptions/common.descriptions';
import { numberInRange, UTC_OFFSET_MINUTES } from '../params';
import { isObject } from '../../../shared/readers/shapes';
import { endUserItem, PROFILE_FIELDS, profileFieldsOf } from './endUserItem';
import { partnerOf } from './needsPartner';
import { includeTokenOption } from './tokenOutput';

export const option = {
	name: 'Create',
	action: 'Create an end user',
	description: 'Create an Albato end user for one of your customers (End User ID)',
};

export const effect = 'write';

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

/** What one item asks for: the end user, its options, and the add-user body. */
interface Creation {
	partner: PartnerSession;
	endUserId: string;
	options: Options;
	body: IDataObject;
	itemIndex: number;
}

/**
 * POST /wl/{partner}/add-user with End User ID as the partner's own id. The token the service may
 * return is kept for the next nodes (no token call follows), and left out of the output unless
 * asked.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const creation = readCreation(this, client, itemIndex);
	const { partner, endUserId, options } = creation;
	let data: unknown;
	try {
		data = await addUser(client, partner, creation.body, itemIndex);
	} catch (error) {
		return await existingUser(this, client, creation, error);
	}
	partner.remember(endUserId, data);
	const minted = tokenFromResponse(data);
	return endUserItem({
		endUserId,
		created: true,
		data: await withProfile(client, creation, data),
		expiresAt: minted?.expiresAt,
		token: options.includeToken ? (minted?.token ?? null) : undefined,
	});
}

/**
 * add-user is not sent; a token call (it changes nothing) tells whether the user exists. An
 * existing user is what the real run reports with "Continue With the Existing User", and otherwise
 * refused as add-user would refuse it.
 */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const { partner, endUserId, options } = readCreation(this, client, itemIndex);
	const token = await tokenIfExists(partner, endUserId, itemIndex);
	if (token !== undefined && options.ifExists !== 'useExisting') {
		throw new NodeOperationError(
			this.getNode(),
			`End user "${endUserId}" already exists: add-user would be refused`,
			{
				itemIndex,
				description:
					'Preview: nothing was sent. If this customer may already exist, set Options → If the User Exists to "Continue With the Existing User".',
			},
		);
	}
	if (token !== undefined)
		return endUserItem({
			endUserId,
			created: false,
			expiresAt: partner.expiresAt(endUserId),
			token: options.includeToken ? token : undefined,
		});
	return endUserItem({
		endUserId,
		created: true,
		data: {},
		expiresAt: undefined,
		token: options.includeToken ? null : undefined,
	});
}

/** The end user, the options, and the body, each value checked before anything is sent. */
function readCreation(ctx: IExecuteFunctions, client: AlbatoClient, itemIndex: number): Creation {
	const partner = partnerOf(ctx, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as Options;
	const body: IDataObject = { id: endUserId };
	if (options.timezoneOffset !== undefined) {
		body.timezoneOffset = numberInRange(
			ctx,
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
				ctx.getNode(),
				`Options → Language must be a language code such as "en", got "${language}"`,
				{ itemIndex },
			);
		}
		body.language = language;
	}
	return { partner, endUserId, options, body, itemIndex };
}

/**
 * add-user failed. Refused, the user may exist (e.g. a webhook delivered twice): with "Continue With
 * the Existing User" and a token for this id, the user's profile fills what add-user would have
 * said (albatoUserId, email, plan, limit), so the next node reads the same fields for a new and an
 * existing customer.
 */
async function existingUser(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	{ partner, endUserId, options, itemIndex }: Creation,
	error: unknown,
) {
	if (!refusedAsExisting(error)) throw error;
	if (options.ifExists !== 'useExisting')
		throw error.outcome === 'refused' || error.declined ? existsHint(ctx, error, itemIndex) : error;
	const token = await tokenIfExists(partner, endUserId, itemIndex);
	if (token === undefined) throw error;
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

/**
 * add-user's answer with the profile fields it left out (Albato documents no language or offset in
 * it) read from get-user-profile, so that a new user's item has the values a repeat shows. The user
 * exists already: a failed read leaves those fields null rather than fail the item.
 */
async function withProfile(client: AlbatoClient, creation: Creation, data: unknown) {
	// What was sent is what the user has (Language, Timezone Offset): no read for those.
	const sent: IDataObject = { ...creation.body };
	delete sent.id;
	const answer = { ...sent, ...(isObject(data) ? data : {}) };
	const fields = profileFieldsOf(answer);
	const missing = (key: string) => fields[key] === undefined || fields[key] === null;
	if (!PROFILE_FIELDS.some(missing)) return answer;
	try {
		const profile = profileFieldsOf(
			await getUserProfile(client, creation.partner, creation.endUserId, {
				transactions: false,
				itemIndex: creation.itemIndex,
			}),
		);
		return {
			...answer,
			...Object.fromEntries(Object.entries(profile).filter(([key]) => missing(key))),
		};
	} catch {
		return answer;
	}
}

/** The user's token, if the service has one for this id (then the user exists). */
async function tokenIfExists(partner: PartnerSession, endUserId: string, itemIndex: number) {
	try {
		return await partner.token(endUserId, { itemIndex });
	} catch {
		return undefined;
	}
}

/** A refused add-user may be a duplicate id: point at the option that continues with that user. */
function existsHint(ctx: IExecuteFunctions, error: AlbatoApiError, itemIndex: number) {
	return retold(ctx.getNode(), error, {
		message: error.message,
		description:
			// The advice first: a second run of the same Create is the usual cause.
			`If this customer may already exist (a second run, a webhook delivered twice), set Options → If the User Exists to "Continue With the Existing User". ${error.description ?? ''}`.trim(),
		itemIndex,
	});
}

/**
 * What a duplicate id plausibly gets (the docs do not say which): a 4xx other than 401/403/429, or
 * a 2xx saying `success: false` (Albato's general page: an error is the flag and a description).
 */
function refusedAsExisting(error: unknown): error is AlbatoApiError {
	if (!(error instanceof AlbatoApiError) || error.deniedAccess) return false;
	return error.outcome === 'refused' || error.outcome === 'notFound' || error.declined;
}
