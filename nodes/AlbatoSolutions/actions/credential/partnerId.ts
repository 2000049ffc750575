import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { toId } from '../params';

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

/** The item's App ID (the service's partnerId), checked (a NodeOperationError naming it, before any request). */
export function partnerIdOf(ctx: IExecuteFunctions, itemIndex: number) {
	return toId(ctx, ctx.getNodeParameter('partnerId', itemIndex, ''), 'App ID', itemIndex);
}
