import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fetchConnectionSettings } from '../../../shared/api/solution';
import { idParameter } from '../params';
import { objectParameter } from '../objectParameters';
import type { AlbatoClient } from '../../../shared/transport/client';
import {
	autoSelectSingleOption,
	optionsCollection,
	solutionLocator,
} from '../../../shared/descriptions/common.descriptions';

export const option = {
	name: 'Get Connection Settings',
	action: 'Get the connection settings of a solution',
	description: 'Steps to fill in before installing, nested levels included',
};

export const effect = 'read';

export const description: INodeProperties[] = [
	solutionLocator,
	{
		displayName: 'Values Already Chosen (JSON)',
		name: 'credentialData',
		type: 'json',
		default: '{}',
		description:
			'Step ID → chosen value, e.g. {"crm": "hubspot"}. The service then also returns the steps nested under those choices.',
	},
	optionsCollection([autoSelectSingleOption]),
];

/**
 * GET /solution/{id}/credentialists[?credentialData[step]=value…] — the steps to fill in, how far
 * the choices reach, what is still missing and the credentialData ready for Installation → Create.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const solutionId = idParameter(this, 'solutionId', 'Solution', itemIndex);
	const choices = objectParameter(this, 'credentialData', 'Values Already Chosen', itemIndex);
	const { autoSelectSingle = false } = this.getNodeParameter('options', itemIndex, {}) as {
		autoSelectSingle?: boolean;
	};
	const { steps, resolution } = await fetchConnectionSettings(client, solutionId, choices, {
		autoSelectSingle,
		itemIndex,
	});
	return {
		solutionId,
		steps,
		complete:
			resolution.missing.length === 0 &&
			resolution.invalid.length === 0 &&
			resolution.unknown.length === 0,
		missing: resolution.missing.map(({ id, title, values }) => ({ id, title, values })),
		invalid: resolution.invalid.map(({ step, given }) => ({
			id: step.id,
			title: step.title,
			given,
			values: step.values,
		})),
		unknown: resolution.unknown,
		autoSelected: resolution.autoSelected,
		credentialData: resolution.credentialData,
	};
}
