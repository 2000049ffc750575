import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	Icon,
	IHttpRequestOptions,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { masterAuthorization } from '../nodes/shared/readers/token';

const REFUSED =
	'The service refused the master token (401) in the form this test sends (Send Master Token As; on Auto: Basic username, token + empty password). Check the token. With Auto, the node also tries Basic Token on its first call and keeps the form that works: run Solution → Check Connection to see which. Or set Send Master Token As: Basic Token, or Bearer, and test again.';

const NOT_ALBATO =
	'Base URL did not answer like Albato\'s partner API (no JSON "success" indicator, e.g. a 404 page or an empty body). Check Base URL (e.g. https://api.albato.com) and Partner Name.';

/** The user id the credential test asks a token for: no partner should have a customer with it. */
const CREDENTIAL_TEST_USER_ID = 'n8n-credential-test-no-such-user';

/**
 * The partner's master token (Albato's Embedded panel). The node never sends end-user calls with
 * it: it asks `/wl/{partner}/get-user-session-token` for each end user's own token and uses that.
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
			name: 'basicAuthStyle',
			type: 'options',
			// A credential saved before Auto existed keeps the value it was saved with (Basic Token).
			default: 'auto',
			options: [
				{
					name: 'Auto',
					value: 'auto',
					description:
						"Basic username first (as Albato's general page says); on a 401 once as Basic token; the form that works is remembered",
				},
				{
					name: 'Basic Username (Token + Empty Password)',
					value: 'usernamePassword',
					description:
						'Authorization: Basic base64("‹master token›:"): "enter its permanent token as the username for the Basic authorization (the password is empty)"',
				},
				{
					name: 'Basic Token',
					value: 'raw',
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
					name: 'Basic Username (Token + Empty Password)',
					value: 'basicUsername',
					description: 'Authorization: Basic base64("‹token›:")',
				},
			],
			description:
				"How the end users' tokens the service hands out (get-user-session-token, add-user) are sent",
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
					credentials.basicAuthStyle,
				),
			},
		};
	}

	// Asks a token for a user id that does not exist: nothing is created or changed. A master token
	// the service rejects answers 401/403 (fails the test). Any other answer passes only if it is
	// recognisably Albato's: a JSON body with the "success" indicator Albato's docs put on every /wl
	// answer, errors included ({"success": false, …} for the unknown user). A 404 page, HTML, an
	// empty body or another server's JSON has none, and fails naming Base URL.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '=/wl/{{encodeURIComponent($credentials.partnerName.trim())}}/get-user-session-token',
			method: 'POST',
			body: { id: CREDENTIAL_TEST_USER_ID },
			json: true,
			// 429: a rate-limited answer proves nothing about the token.
			ignoreHttpStatusErrors: { ignore: true, except: [401, 403, 429, 500, 502, 503, 504] },
		},
		// n8n's type takes one kind of rule per list; its tester checks each rule by its own type.
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: REFUSED,
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The master token is not valid for this Partner Name (403). Check both.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: { key: 'success', value: undefined, message: NOT_ALBATO },
			},
			{
				type: 'responseSuccessBody',
				properties: { key: 'success', value: null, message: NOT_ALBATO },
			},
		] satisfies Array<
			IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody
		> as unknown as IAuthenticateRuleResponseCode[],
	};
}
