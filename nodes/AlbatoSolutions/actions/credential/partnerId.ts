import type { INodeProperties } from 'n8n-workflow';

export const partnerIdProperty: INodeProperties = {
	displayName: 'Partner ID',
	name: 'partnerId',
	type: 'number',
	default: 0,
	required: true,
	typeOptions: { minValue: 1 },
	description: 'The partner (connected app) the credential is for, e.g. 201',
};
