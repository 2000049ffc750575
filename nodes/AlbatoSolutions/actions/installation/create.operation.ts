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
	newInstallation,
} from '../safeInstall/installInput';
import { installSafely, TitleTakenError } from '../safeInstall/installSafely';
import { listInstallations } from '../../../shared/api/installation';

export const option = {
	name: 'Create',
	action: 'Install a solution',
	description: 'Install a solution for the end user',
};

export const effect = 'write';

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
 * structure. Never retried blindly: when the answer is lost, it looks for what it created
 * (installSafely).
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
		titleScope: 'endUser',
		checkWindow: input.checkWindow,
	});
}

/**
 * Checked as the real run checks (the connection settings, and with Refuse Duplicate Title the
 * title); nothing is installed.
 */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const input = readInstallInput(this, itemIndex);
	await installBody(this, client, input, itemIndex);
	if (input.options.refuseDuplicateTitle === true) {
		const twin = (await listInstallations(client, itemIndex)).find(
			(installation) => installation.title === input.title,
		);
		if (twin) throw new TitleTakenError(this, input.title, twin.id as number, itemIndex);
	}
	return newInstallation(input.solutionId, input.title);
}
