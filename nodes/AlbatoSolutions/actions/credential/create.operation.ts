import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mapperOrJson } from '../../../shared/descriptions/mapper.descriptions';
import { appIdParameter, oneOf, textParameter } from '../params';
import { mappedOrJson, unsafeKeyPath } from '../objectParameters';
import { checkValues, maskSecrets } from '../../../shared/readers/partnerSchema';
import { withNumericIds } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import { AlbatoApiError, retold } from '../../../shared/transport/errors';
import { appIdProperty, optionsCollection } from '../../../shared/descriptions/common.descriptions';
import { createCredential, partnerSchema } from '../../../shared/api/credential';
import { renamedIn2, versionedName } from '../../../shared/descriptions/versions';

export const option = {
	name: 'Create',
	action: 'Create a connection to an app',
	description: "Create the end user's connection to an app, from the fields it needs",
};

export const effect = 'write';

const connectionName: INodeProperties = {
	displayName: 'Connection Name',
	name: 'connectionName',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. Acme HubSpot',
	description: 'A name for the new connection, shown to the end user',
};

/** The parameters' names as the workflow saved them (version 1 first as `title` and `fieldMapper`). */
function names(ctx: IExecuteFunctions) {
	return {
		name: versionedName(ctx, { 1: 'title', 2: 'connectionName' }),
		mapper: versionedName(ctx, { 1: 'fieldMapper', 2: 'connectionFieldMapper' }),
	};
}

/** Fields Input, Connection Fields (version 1 also as `fieldMapper`), JSON. */
function connectionFields(): INodeProperties[] {
	const [mode, mapper, json] = mapperOrJson({
		mode: 'fieldsMode',
		mapper: 'connectionFieldMapper',
		displayName: 'Connection Fields',
		method: 'getPartnerFields',
		dependsOn: ['partnerId'],
		singular: 'field',
		plural: 'fields',
		addAllFields: true,
		json: {
			displayName: 'Connection Fields (JSON)',
			name: 'fields',
			type: 'json',
			default: '{}',
			required: true,
			description:
				'The fields the app\'s connection needs, e.g. {"apiKey": "…", "region": "eu"}. Credential → Get Schema lists them.',
		},
	});
	return [mode, ...renamedIn2(mapper, 'fieldMapper'), json];
}

export const description: INodeProperties[] = [
	appIdProperty('partnerId'),
	...renamedIn2(connectionName, 'title'),
	...connectionFields(),
	optionsCollection([
		{
			displayName: 'Body Layout',
			name: 'bodyLayout',
			type: 'options',
			default: 'flat',
			description:
				'How the partner\'s fields are laid out in the request body. The beta service documents a flat set of key-value pairs; Albato\'s own-connection method wraps them in "fields".',
			options: [
				{ name: 'Flat (Documented)', value: 'flat', description: '{"title": "…", "apiKey": "…"}' },
				{
					name: 'Wrapped (Fields Object)',
					value: 'fields',
					description: '{"title": "…", "fields": {"apiKey": "…"}}',
				},
			],
		},
		{
			displayName: 'Name Field',
			name: 'nameField',
			type: 'string',
			default: 'title',
			description:
				'Body field that carries the connection name (the beta service does not document it)',
		},
	]),
];

/** What one item asks for, each value checked before anything is sent. */
interface NewConnection {
	partnerId: number;
	title: string;
	values: IDataObject;
	nameField: string;
	bodyLayout: BodyLayout;
}

/**
 * POST /credentials/{partnerId}: the values are first checked against the partner's schema
 * (GET /credentials/{partnerId}/meta), and secret values never appear in the output.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const input = readNewConnection(this, itemIndex);
	const { partnerId, values, bodyLayout } = input;
	const secrets = await checkedSecrets(this, client, input, itemIndex);
	const name = { [input.nameField || 'title']: input.title };
	let created: unknown;
	try {
		created = await createCredential(
			client,
			partnerId,
			bodyLayout === 'fields' ? { ...name, fields: values } : { ...values, ...name },
			Object.entries(values)
				.filter(([key, value]) => secrets.has(key) && ['string', 'number'].includes(typeof value))
				.map(([, value]) => String(value)),
			itemIndex,
		);
	} catch (error) {
		throw layoutHint(this, error, bodyLayout, itemIndex);
	}
	return withNumericIds(maskSecrets(created ?? {}, secrets) as IDataObject, ['id', 'partnerId']);
}

/** Checked against the schema as a real run is; nothing created (no ID yet). */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const input = readNewConnection(this, itemIndex);
	const secrets = await checkedSecrets(this, client, input, itemIndex);
	const { partnerId, title } = input;
	return { id: null, partnerId, title, values: maskSecrets(input.values, secrets) as IDataObject };
}

function readNewConnection(ctx: IExecuteFunctions, itemIndex: number): NewConnection {
	const partnerId = appIdParameter(ctx, 'partnerId', itemIndex);
	const saved = names(ctx);
	const title = textParameter(ctx, saved.name, 'Connection Name', itemIndex);
	const values = mappedOrJson(
		ctx,
		itemIndex,
		{ mode: 'fieldsMode', mapper: saved.mapper, json: 'fields' },
		'Connection Fields',
	);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as {
		nameField?: string;
		bodyLayout?: unknown;
	};
	const nameField = options.nameField ?? 'title';
	const bodyLayout = oneOf<BodyLayout>(
		ctx,
		options.bodyLayout,
		'Options → Body Layout',
		{ allowed: ['flat', 'fields'], fallback: 'flat' },
		itemIndex,
	);
	if (unsafeKeyPath({ [nameField]: true })) {
		throw new NodeOperationError(ctx.getNode(), `Options → Name Field cannot be "${nameField}"`, {
			itemIndex,
			description:
				'The keys __proto__, constructor and prototype are refused: they change JavaScript objects instead of being plain data.',
		});
	}
	return { partnerId, title, values, nameField, bodyLayout };
}

/** The values checked against the partner's schema; answers which of its fields are secret. */
async function checkedSecrets(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	{ partnerId, values }: NewConnection,
	itemIndex: number,
): Promise<Set<string>> {
	const schema = await partnerSchema(client, partnerId, itemIndex);
	const problems = checkValues(schema, values);
	if (problems.length > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Connection Fields do not fit app ${partnerId}: ${problems[0]}`,
			{
				itemIndex,
				description: `Nothing was created. ${problems.join('. ')}.`,
			},
		);
	}
	return new Set(schema.filter((field) => field.secret).map((field) => field.id));
}

type BodyLayout = 'flat' | 'fields';

/**
 * The two body layouts cannot be told apart from any answer but a refusal; so a 400/422 names the
 * layout sent and the option that switches it, after the service's own message.
 */
function layoutHint(
	ctx: IExecuteFunctions,
	error: unknown,
	layout: BodyLayout,
	itemIndex: number,
): unknown {
	if (!(error instanceof AlbatoApiError) || !error.rejectsValues) return error;
	const other = layout === 'flat' ? 'Wrapped (Fields Object)' : 'Flat (Documented)';
	const sent = layout === 'flat' ? 'flat beside the connection name' : 'wrapped in "fields"';
	return retold(ctx.getNode(), error, {
		message: error.message,
		description:
			`${error.description ?? ''} The fields were sent ${sent}: if the service expects the other layout, set Options → Body Layout to "${other}".`.trim(),
		itemIndex,
	});
}
