import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mapperOrJson } from '../../helpers/mapperDescription';
import { mappedOrJson, textParameter, toId, unsafeKeyPath } from '../../helpers/params';
import { checkValues, maskSecrets } from '../../helpers/partnerSchema';
import type { AlbatoClient } from '../../transport';
import { segment } from '../../transport';
import { optionsCollection } from '../common.descriptions';
import { partnerIdProperty, partnerSchema } from './partner';

export const description: INodeProperties[] = [
	partnerIdProperty,
	{
		displayName: 'Connection Name',
		name: 'title',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Acme HubSpot',
		description: 'A name for the new connection, shown to the end user',
	},
	...mapperOrJson({
		mode: 'fieldsMode',
		mapper: 'fieldMapper',
		displayName: 'Fields',
		method: 'getPartnerFields',
		dependsOn: ['partnerId'],
		singular: 'field',
		plural: 'fields',
		addAllFields: true,
		json: {
			displayName: 'Fields (JSON)',
			name: 'fields',
			type: 'json',
			default: '{}',
			required: true,
			description: 'The partner\'s fields, e.g. {"apiKey": "…", "region": "eu"}. Credential → Get Schema lists them.',
		},
	}),
	optionsCollection([
		{
			displayName: 'Name Field',
			name: 'nameField',
			type: 'string',
			default: 'title',
			description: 'Body field that carries the connection name (the beta service does not document it)',
		},
	]),
];

/**
 * POST /credentials/{partnerId}: the values are first checked against the partner's schema
 * (GET /credentials/{partnerId}/meta), and secret values never appear in the output.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partnerId = toId(this, this.getNodeParameter('partnerId', itemIndex, ''), 'Partner ID', itemIndex);
	const title = textParameter(this, 'title', 'Connection Name', itemIndex);
	const values = mappedOrJson(this, itemIndex, { mode: 'fieldsMode', mapper: 'fieldMapper', json: 'fields' }, 'Fields');
	const { nameField = 'title' } = this.getNodeParameter('options', itemIndex, {}) as { nameField?: string };
	if (unsafeKeyPath({ [nameField]: true })) {
		throw new NodeOperationError(this.getNode(), `Options → Name Field cannot be "${nameField}"`, {
			itemIndex,
			description: 'The keys __proto__, constructor and prototype are refused: they change JavaScript objects instead of being plain data.',
		});
	}

	const schema = await partnerSchema(client, partnerId, itemIndex);
	const problems = checkValues(schema, values);
	if (problems.length > 0) {
		throw new NodeOperationError(this.getNode(), `Fields do not fit partner ${partnerId}: ${problems[0]}`, {
			itemIndex,
			description: `Nothing was created. ${problems.join('. ')}.`,
		});
	}
	const created = await client.request('POST', `/credentials/${segment(partnerId)}`, {
		body: { ...values, [nameField || 'title']: title },
		itemIndex,
	});
	const secrets = new Set(schema.filter((field) => field.secret).map((field) => field.id));
	return maskSecrets(created ?? {}, secrets) as IDataObject;
}
