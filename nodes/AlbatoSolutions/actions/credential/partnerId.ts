import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { toId } from '../params';

export const partnerIdProperty: INodeProperties = {
	displayName: 'Partner ID',
	name: 'partnerId',
	type: 'number',
	default: 0,
	required: true,
	typeOptions: { minValue: 1 },
	description: 'The partner (connected app) the credential is for, e.g. 201',
};

/** The item's Partner ID, checked (a NodeOperationError naming it, before any request). */
export function partnerIdOf(ctx: IExecuteFunctions, itemIndex: number) {
	return toId(ctx, ctx.getNodeParameter('partnerId', itemIndex, ''), 'Partner ID', itemIndex);
}
