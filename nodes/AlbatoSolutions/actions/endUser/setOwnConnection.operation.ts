import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	getOwnCredential,
	ownCredentialMetadata,
	upsertOwnCredential,
} from '../../../shared/api/ownConnection';
import { normalizeSchema } from '../../../shared/readers/partnerSchema';
import { mapperOrJson } from '../../../shared/descriptions/mapper.descriptions';
import { isMasked, ownConnectionOutput } from '../../../shared/readers/ownConnectionAnswer';
import { isObject } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import { outcomeOf } from '../../../shared/transport/errors';
import { mappedOrJson } from '../objectParameters';
import { ownPartnerName, ownPartnerNameProperty } from './ownPartnerName';

export const option = {
	name: 'Set Own Connection',
	action: 'Set the connection of an end user to your system',
	description:
		"Create or update the end user's connection to your own app (one of them at random if there are several). The values sent overwrite the stored ones.",
};

export const effect = 'write';

export const description: INodeProperties[] = [
	ownPartnerNameProperty,
	...mapperOrJson({
		mode: 'ownFieldsMode',
		mapper: 'ownFieldMapper',
		displayName: 'Own Connection Fields',
		method: 'getOwnConnectionFields',
		dependsOn: ['ownPartnerName', 'endUserId'],
		singular: 'field',
		plural: 'fields',
		addAllFields: false,
		json: {
			displayName: 'Own Connection Fields (JSON)',
			name: 'ownFields',
			type: 'json',
			default: '{}',
			required: true,
			description:
				'The fields of the connection to your own system, e.g. {"userId": 87123, "accessToken": "…"}. End User → Get Own Connection Fields lists them.',
		},
	}),
];

/**
 * POST /wl/{partner}/upsert-own-credential {fields} as the end user. If the end user has several
 * such connections, Albato updates one of them at random (its docs say so). Values are checked
 * before the request; no error names a value, only its field.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const { partnerName, fields } = readOwnFields(this, client, itemIndex);
	return ownConnectionOutput(await upsertOwnCredential(client, partnerName, fields, itemIndex));
}

/** The connection as it would be: what it holds now with these fields, secrets masked. */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const { partnerName, fields } = readOwnFields(this, client, itemIndex);
	const schema = normalizeSchema(await ownCredentialMetadata(client, partnerName, itemIndex));
	const secret = new Set(schema.filter((field) => field.secret).map((field) => field.id));
	// None yet (404): the upsert would create it.
	const current = await getOwnCredential(client, partnerName, itemIndex).catch((error) => {
		if (outcomeOf(error) === 'notFound') return {};
		throw error as Error;
	});
	const shown = Object.fromEntries(
		Object.entries(fields).map(([key, value]) => [key, secret.has(key) ? '[hidden]' : value]),
	);
	return ownConnectionOutput({ ...(current as IDataObject), ...shown });
}

/** The own app's name and the fields to send, each checked. */
function readOwnFields(ctx: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partnerName = ownPartnerName(ctx, client, itemIndex);
	refuseUnreadableJson(ctx, itemIndex);
	const fields = mappedOrJson(
		ctx,
		itemIndex,
		{ mode: 'ownFieldsMode', mapper: 'ownFieldMapper', json: 'ownFields' },
		'Own Connection Fields',
		{ allowEmpty: false },
	);
	for (const [key, value] of Object.entries(fields)) {
		if (isMasked(value)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Own Connection Fields → "${key}" is a masked value, not the real one: nothing was sent`,
				{
					itemIndex,
					description:
						'Albato answers secrets masked (e.g. "••570f"). Give the real value, or leave the field out to keep it.',
				},
			);
		}
		if (value !== null && (isObject(value) || Array.isArray(value))) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Own Connection Fields → "${key}" must be a text, a number or a boolean, got ${Array.isArray(value) ? 'a list' : 'an object'}`,
				{ itemIndex },
			);
		}
	}
	return { partnerName, fields };
}

/** JSON's own error quotes the text (which holds secrets): say only where it fails. */
function refuseUnreadableJson(ctx: IExecuteFunctions, itemIndex: number): void {
	if (ctx.getNodeParameter('ownFieldsMode', itemIndex, 'json') === 'mapper') return;
	const raw = ctx.getNodeParameter('ownFields', itemIndex, '') as unknown;
	if (typeof raw !== 'string' || raw.trim() === '') return;
	try {
		JSON.parse(raw);
	} catch {
		throw new NodeOperationError(ctx.getNode(), 'Own Connection Fields (JSON) is not valid JSON', {
			itemIndex,
			description:
				'Write the fields as one JSON object, e.g. {"userId": 87123}. The text is not repeated here: it may hold secrets.',
		});
	}
}
