import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { linkExpiry, linkUrl, type Sharing } from '../../../shared/readers/links';
import { toId } from '../params';

export const sharingIdProperty: INodeProperties = {
	displayName: 'Sharing ID',
	name: 'sharingId',
	type: 'string',
	default: '',
	required: true,
	description:
		'The ID of the connection link (sharingId in the output of Credential → Create Link), e.g. 61',
};

export function sharingIdParameter(ctx: IExecuteFunctions, itemIndex: number): number {
	return toId(ctx, ctx.getNodeParameter('sharingId', itemIndex, ''), 'Sharing ID', itemIndex);
}

/**
 * A sharing as output: its link (the one place its token may appear, and only while it can be
 * used), never the token on its own.
 */
export function sharingOutput(
	ctx: IExecuteFunctions,
	sharing: Sharing,
	itemIndex: number,
	{ withLink, sentId }: { withLink: boolean; sentId?: number },
): IDataObject {
	const id = sharing.id ?? sentId;
	if (withLink && (id === undefined || sharing.token === undefined)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The service's answer has no ${id === undefined ? 'id' : 'token'}: no link can be made from it`,
			{
				itemIndex,
				description:
					'The link needs the sharing id and its token (https://connect.integrations-hub.com?id=…&token=…). The sharing may exist: Credential → Get Link Status shows it once you know its id.',
			},
		);
	}
	return {
		sharingId: id ?? null,
		partnerId: sharing.partnerId ?? null,
		title: sharing.title ?? null,
		state: sharing.state,
		connected: sharing.state === 'connected',
		credentialId: sharing.credentialId ?? null,
		status: sharing.status ?? null,
		dateCreated: sharing.dateCreated ?? null,
		...(withLink ? { link: linkUrl(id!, sharing.token!) } : {}),
	};
}

/** expiresAt for a link just created or renewed (from dateCreated, else from now: labelled). */
export const freshExpiry = (sharing: Sharing) => linkExpiry(sharing.dateCreated, Date.now());
