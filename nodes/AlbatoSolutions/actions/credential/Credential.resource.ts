import type { INodeProperties } from 'n8n-workflow';

import { forOperation } from '../../../shared/descriptions/forOperation';
import * as create from './create.operation';
import * as createLink from './createLink.operation';
import * as deleteLink from './deleteLink.operation';
import * as getLinkStatus from './getLinkStatus.operation';
import * as getSchema from './getSchema.operation';
import * as refreshUserData from './refreshUserData.operation';
import * as renewLink from './renewLink.operation';

export const operations = {
	create,
	createLink,
	deleteLink,
	getLinkStatus,
	getSchema,
	refreshUserData,
	renewLink,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['credential'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a connection to an app',
				description: "Create the end user's connection to an app, from the fields it needs",
			},
			{
				name: 'Create Link',
				value: 'createLink',
				action: 'Create a connection link',
				description:
					'Create a one-time link (valid 48 h) that the customer opens to connect an app, e.g. with OAuth',
			},
			{
				name: 'Delete Link',
				value: 'deleteLink',
				action: 'Delete a connection link',
				description: 'Revoke a connection link; a connection already made with it stays',
			},
			{
				name: 'Get Link Status',
				value: 'getLinkStatus',
				action: 'Get the status of a connection link',
				description: 'Whether the customer has connected, and the connection (credentialId) made',
			},
			{
				name: 'Get Schema',
				value: 'getSchema',
				action: 'Get the connection fields of an app',
				description: 'The fields a connection to the app needs',
			},
			{
				name: 'Refresh User Data',
				value: 'refreshUserData',
				action: 'Refresh the user data of a connection',
				description: "Ask Albato to update a connection's user data, optionally until it is done",
			},
			{
				name: 'Renew Link',
				value: 'renewLink',
				action: 'Renew a connection link',
				description:
					"A new link (new token, 48 h again) for a link not used yet. The customer's current link stops working at once.",
			},
		],
		default: 'getSchema',
	},
	...forOperation('credential', 'create', create.description),
	...forOperation('credential', 'getSchema', getSchema.description),
	...forOperation('credential', 'createLink', createLink.description),
	...forOperation('credential', 'getLinkStatus', getLinkStatus.description),
	...forOperation('credential', 'renewLink', renewLink.description),
	...forOperation('credential', 'deleteLink', deleteLink.description),
	...forOperation('credential', 'refreshUserData', refreshUserData.description),
];
