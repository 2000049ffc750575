import type { INodeProperties } from 'n8n-workflow';

export const partnerIdProperty: INodeProperties = {
	displayName: 'App ID',
	name: 'partnerId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 201',
	description:
		"The app to connect (HubSpot, Mailchimp…), by its ID. Albato's API calls such an app a partner (partnerId); it is not your own partner account.",
};
