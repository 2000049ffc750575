import type {
	ICredentialDataDecryptedObject,
	Icon,
	IHttpRequestOptions,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { formChoice, masterAuthorization } from '../nodes/shared/readers/token';

/**
 * The partner's master token (Albato's Embedded panel). The node never sends end-user calls with
 * it: it asks `/wl/{partner}/get-user-session-token` for each end user's own token and uses that.
 * Its Test button is the nodes' `credentialTest.albatoPartnerApiTest` (`testedBy`): it tries each
 * form Auto tries, where a `test` request here could send one form only.
 */
export class AlbatoPartnerApi implements ICredentialType {
	name = 'albatoPartnerApi';

	displayName = 'Albato Partner API';

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
			description: 'Address of the service. A trailing slash is ignored.',
			required: true,
		},
		{
			displayName: 'Partner Name',
			name: 'partnerName',
			type: 'string',
			default: '',
			placeholder: 'my-saas',
			description:
				'Your partner name as it appears in the partner URLs: {Base URL}/wl/{Partner Name}/add-user',
			required: true,
		},
		{
			displayName: 'Master Token',
			name: 'masterToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'The master token from the Embedded panel of your Albato partner account',
			required: true,
		},
		{
			displayName: 'Send Master Token As',
			name: 'headerForm',
			type: 'options',
			// A credential saved by an earlier release keeps the form it chose (basicAuthStyle, below).
			default: 'auto',
			options: [
				{
					name: 'Auto',
					value: 'auto',
					description:
						"Basic username first (as Albato's general page says); on a 401 once as Basic token; the form that works is remembered",
				},
				{
					name: 'Basic Username',
					value: 'basicUsername',
					description:
						'Authorization: Basic base64("‹master token›:"): "enter its permanent token as the username for the Basic authorization (the password is empty)"',
				},
				{
					name: 'Basic Token',
					value: 'basicRaw',
					description:
						"Authorization: Basic ‹master token›, as the placeholder of Albato's partner quick start",
				},
				{
					name: 'Bearer',
					value: 'bearer',
					description: 'Authorization: Bearer ‹master token›',
				},
			],
			description:
				'How the master token is put in the Authorization header of the partner calls. Auto finds out; pick one only if the test or the node says so.',
		},
		{
			displayName: 'Send End-User Tokens As',
			name: 'endUserHeaderForm',
			type: 'options',
			default: 'auto',
			options: [
				{
					name: 'Auto',
					value: 'auto',
					description:
						'A session token (JWT) as Bearer; a permanent token as Basic username, then (on a 401) as Bearer, remembered',
				},
				{
					name: 'Bearer',
					value: 'bearer',
					description: 'Authorization: Bearer ‹token›',
				},
				{
					name: 'Basic Username',
					value: 'basicUsername',
					description:
						'Authorization: Basic base64("‹token›:"): the token as the username, an empty password',
				},
			],
			description:
				"How the end users' tokens the service hands out (get-user-session-token, add-user) are sent",
		},
		// Where earlier releases saved Send Master Token As (`raw`, `usernamePassword`, `bearer`,
		// `auto`): never shown nor written, only declared so that n8n hands a saved value on (it drops
		// what a credential does not declare). See formChoice (readers/token.ts).
		{
			displayName: 'Send Master Token As (Earlier Releases)',
			name: 'basicAuthStyle',
			type: 'hidden',
			default: '',
		},
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: {
				...requestOptions.headers,
				Authorization: masterAuthorization(
					String(credentials.masterToken ?? ''),
					formChoice(credentials, 'headerForm'),
				),
			},
		};
	}
}
