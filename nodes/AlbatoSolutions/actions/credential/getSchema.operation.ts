import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { toId } from '../../helpers/params';
import type { AlbatoClient } from '../../transport';
import { segment } from '../../transport';
import { partnerIdProperty } from './partner';

export const description: INodeProperties[] = [partnerIdProperty];

/** GET /credentials/{partnerId}/meta — the fields a credential for that partner needs. */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partnerId = toId(this, this.getNodeParameter('partnerId', itemIndex, ''), 'Partner ID', itemIndex);
	const schema = await client.request<IDataObject>('GET', `/credentials/${segment(partnerId)}/meta`, { itemIndex });
	return { partnerId, ...(Array.isArray(schema) ? { fields: schema } : schema) };
}
