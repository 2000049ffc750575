import type {
	ICredentialDataDecryptedObject,
	Icon,
	IHttpRequestOptions,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { bearerAuthorization } from '../nodes/shared/readers/token';

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
			description: "The end user's token (a JWT), sent as a Bearer token on every call",
			required: true,
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
				Authorization: bearerAuthorization(String(credentials.accessToken ?? '')),
			},
		};
	}

	// The expression drops trailing slashes, so "https://host/" works too.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/solution/apps',
			method: 'GET',
		},
	};
}
