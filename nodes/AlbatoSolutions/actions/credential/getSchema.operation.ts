import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { AlbatoClient } from '../../../shared/transport/client';
import { partnerMeta } from '../../../shared/api/credential';
import { appIdProperty } from '../../../shared/descriptions/common.descriptions';
import { appIdParameter } from '../params';

export const option = {
	name: 'Get Schema',
	action: 'Get the connection fields of an app',
	description: 'The fields a connection to the app needs',
};

export const effect = 'read';

export const description: INodeProperties[] = [appIdProperty('partnerId')];

/** GET /credentials/{partnerId}/meta — the fields a connection to that app needs. */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partnerId = appIdParameter(this, 'partnerId', itemIndex);
	const schema = await partnerMeta(client, partnerId, itemIndex);
	// partnerId last: the parameter's number, whatever type the service echoes.
	return { ...(Array.isArray(schema) ? { fields: schema } : (schema as IDataObject)), partnerId };
}
