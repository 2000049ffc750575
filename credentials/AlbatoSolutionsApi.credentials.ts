import type {
	ICredentialDataDecryptedObject,
	Icon,
	IHttpRequestOptions,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { bearerAuthorization, formChoice } from '../nodes/shared/readers/token';

/**
 * One end user's token. Its Test button is the nodes' `credentialTest.albatoSolutionsApiTest`
 * (`testedBy`): it tries each form Auto tries, where a `test` request here could send one only.
 */
export class AlbatoSolutionsApi implements ICredentialType {
	name = 'albatoSolutionsApi';

	displayName = 'Albato Solutions API';

	icon: Icon = {
		light: 'file:../nodes/AlbatoSolutions/albatoSolutions.svg',
		dark: 'file:../nodes/AlbatoSolutions/albatoSolutions.dark.svg',
	};

	documentationUrl = 'https://github.com/albato-solutions/n8n-nodes-albato-solutions#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.albato.com',
			placeholder: 'https://api.albato.com',
			description: 'Address of the Solution Installation Service. A trailing slash is ignored.',
			required: true,
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"The end user's token: a session token (a JWT) or a permanent token, sent as Send Token As says",
			required: true,
		},
		{
			displayName: 'Send Token As',
			name: 'headerForm',
			type: 'options',
			default: 'auto',
			options: [
				{
					name: 'Auto',
					value: 'auto',
					description:
						'A session token (JWT) as Bearer; any other token as Basic username, then (on a 401) as Bearer, remembered',
				},
				{
					name: 'Bearer',
					value: 'bearer',
					description: 'Authorization: Bearer ‹token›, as Albato shows session tokens',
				},
				{
					name: 'Basic Username',
					value: 'basicUsername',
					description:
						'Authorization: Basic base64("‹token›:"): the token as the username, an empty password, as Albato says for a permanent token',
				},
			],
			description:
				'How the token is put in the Authorization header. Auto finds out; pick one only if the test or the node says so.',
		},
	];

	// A function rather than a generic block: n8n would evaluate the block's expression on every
	// request.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: bearerAuthorization(
					String(credentials.accessToken ?? ''),
					formChoice(credentials, 'headerForm'),
				),
			},
		};
	}
}
