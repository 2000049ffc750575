import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { AlbatoClient } from '../../../shared/transport/client';
import type { PartnerSession } from '../../../shared/transport/partnerSession';

/** The End User resource speaks for the partner: it needs the Albato Partner API credential. */
export function partnerOf(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	itemIndex: number,
): PartnerSession {
	if (!client.partner) {
		throw new NodeOperationError(
			ctx.getNode(),
			'End User needs the Albato Partner API credential',
			{
				itemIndex,
				description:
					'Set Authentication to "Partner API" and choose an Albato Partner API credential (Base URL, Partner Name, Master Token)',
			},
		);
	}
	return client.partner;
}
