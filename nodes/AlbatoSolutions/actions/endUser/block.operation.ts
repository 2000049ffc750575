import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { blockUserPlan } from '../../../shared/api/endUser';
import type { AlbatoClient } from '../../../shared/transport/client';
import { outcomeOf } from '../../../shared/transport/errors';
import { partnerOf } from './partnerSession';

export const option = {
	name: 'Block',
	action: 'Block an end user',
	description:
		"Block the end user's billing plan: Albato pauses all their integrations and no new ones can start (needs confirmation)",
};

export const description: INodeProperties[] = [
	{
		displayName: 'Confirm: Block the User',
		name: 'confirmBlock',
		type: 'boolean',
		default: false,
		description:
			"Whether you confirm blocking the end user's billing plan. Albato then pauses all of the user's integrations and no new integrations can be started. Albato documents no unblock method (see the README). While off, the item fails and nothing is sent.",
	},
];

/**
 * POST /wl/{partner}/block-user-plan, only with the confirmation on. Albato's page: "When applied,
 * all user integrations are paused and no new integrations can be started."
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const partner = partnerOf(this, client, itemIndex);
	const endUserId = partner.endUserId(itemIndex);
	if (this.getNodeParameter('confirmBlock', itemIndex, false) !== true) {
		throw new NodeOperationError(
			this.getNode(),
			`Confirm: Block the User is off: end user "${endUserId}" was not blocked`,
			{
				itemIndex,
				description:
					'Blocking pauses all of the user\'s integrations and stops new ones from starting; Albato documents no unblock method. Turn on "Confirm: Block the User" to block; nothing was sent.',
			},
		);
	}
	try {
		await blockUserPlan(client, partner, endUserId, itemIndex);
	} catch (error) {
		if (outcomeOf(error) !== 'notFound') throw error as Error;
		throw new NodeOperationError(
			this.getNode(),
			`End user "${endUserId}" does not exist: nothing was blocked`,
			{
				itemIndex,
				description:
					'The service answered 404 for this End User ID (never created, or deleted). Check End User ID.',
			},
		);
	}
	return { endUserId, blocked: true };
}
