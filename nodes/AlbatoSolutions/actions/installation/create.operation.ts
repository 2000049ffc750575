import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { AlbatoClient } from '../../../shared/transport/client';
import {
	autoSelectSingleOption,
	optionsCollection,
} from '../../../shared/descriptions/common.descriptions';
import {
	installBody,
	installFields,
	lostAnswerCheckOption,
	readInstallInput,
	settingsOption,
} from './installInput';
import { installSafely } from './installSafely';

export const option = {
	name: 'Create',
	action: 'Install a solution',
	description: 'Install a solution for the end user',
};

export const description: INodeProperties[] = [
	...installFields,
	optionsCollection([
		autoSelectSingleOption,
		lostAnswerCheckOption,
		{
			displayName: 'Refuse Duplicate Title',
			name: 'refuseDuplicateTitle',
			type: 'boolean',
			default: false,
			description:
				'Whether to fail, installing nothing, when the end user already has an installation with this title',
		},
		settingsOption,
	]),
];

/**
 * POST /solution/{id}/installation, after checking the connection settings against the service's
 * structure. Never retried blindly: when the answer is lost, it looks for what it created (installSafely).
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const input = readInstallInput(this, itemIndex);
	const body = await installBody(this, client, input, itemIndex);
	return await installSafely(this, client, {
		solutionId: input.solutionId,
		title: input.title,
		body,
		itemIndex,
		refuseDuplicateTitle: input.options.refuseDuplicateTitle === true,
		checkWindow: input.checkWindow,
	});
}
