import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { ACCESS_TOKEN, PARTNER_API } from '../constants';

/**
 * The node and the trigger accept either credential; Access Token stays the default for existing
 * workflows. Each node lists them as literals (`{ name: 'albatoPartnerApi', testedBy: …,
 * ...partnerApiCredential }`): n8n's lint looks for the `testedBy` of a credential that has no
 * `test` of its own in the node file itself. Both credentials are tested by the functions in
 * `methods.credentialTest` (methods/credentialTest.ts), which both nodes carry.
 */
export const accessTokenCredential = {
	required: true,
	displayOptions: { show: { authentication: [ACCESS_TOKEN] } },
} satisfies Omit<INodeCredentialDescription, 'name'>;

export const partnerApiCredential = {
	required: true,
	displayOptions: { show: { authentication: [PARTNER_API] } },
} satisfies Omit<INodeCredentialDescription, 'name'>;

export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'Access Token',
			value: ACCESS_TOKEN,
			description: "One end user's token (JWT), pasted into the credential",
		},
		{
			name: 'Partner API',
			value: PARTNER_API,
			description: 'Your partner master token: act as any of your customers by End User ID',
		},
	],
	default: ACCESS_TOKEN,
};

export const endUserIdProperty: INodeProperties = {
	displayName: 'End User ID',
	name: 'endUserId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. {{ $json.customerId }}',
	description:
		"Your own ID of the customer (the ID you gave Albato in End User → Create). The node gets that end user's token and acts as them; may differ per item. Check Connection and the solution reads take any existing customer; with none yet, create one first with End User → Create.",
	displayOptions: { show: { authentication: [PARTNER_API] } },
};
