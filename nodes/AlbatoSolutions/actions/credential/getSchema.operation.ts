import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { AlbatoClient } from '../../../shared/transport/client';
import { partnerMeta } from '../../../shared/api/credential';
import { partnerIdOf, partnerIdProperty } from './partnerId';

export const option = {
	name: 'Get Schema',
	action: 'Get the connection fields of an app',
	description: 'The fields a connection to the app needs',
};

export const description: INodeProperties[] = [partnerIdProperty];

/** GET /credentials/{partnerId}/meta — the fields a connection to that app needs. */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partnerId = partnerIdOf(this, itemIndex);
	const schema = await partnerMeta(client, partnerId, itemIndex);
	// partnerId last: the parameter's number, whatever type the service echoes.
	return { ...(Array.isArray(schema) ? { fields: schema } : (schema as IDataObject)), partnerId };
}
