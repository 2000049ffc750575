import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	autoSelectSingleOption,
	optionsCollection,
	solutionLocator,
} from '../../../shared/descriptions/common.descriptions';
import type { AlbatoClient } from '../../../shared/transport/client';
import { installFields, lostAnswerCheckOption, settingsOption } from '../safeInstall/installInput';
import { rollBackCustomer, upgradeCustomer } from './upgrade/move';
import { readUpgradeItem } from './upgrade/upgradeItem';

export const option = {
	name: 'Upgrade',
	action: 'Upgrade an installation to a new solution',
	description:
		"Move the end user's installation to a new version of its solution (another solution): install it with the same connections, carry the field values over, pause the old one, start the new one. Or roll back. Safe to repeat.",
};

export const effect = 'write';

/** Create's fields, said for the upgrade: the target solution, and the title both copies share. */
const targetFields = installFields.map((property): INodeProperties => {
	if (property.name === 'solutionId')
		return {
			...property,
			description:
				'The solution to move the customer to: the new version the partner prepared (only its latest published version is offered). Roll Back moves the customer back from it.',
		};
	if (property.name === 'title')
		return {
			...property,
			description:
				"The exact title of the customer's installation. The old one is found by it, and the new one gets it too.",
		};
	if (property.name === 'credentialData')
		return {
			...property,
			required: false,
			description:
				'Step ID → chosen value for the new solution\'s connection settings. Used only when the service does not show the old installation\'s (then they are required), e.g. {"crm": "hubspot", "hubspot_account": "acc_1"}.',
		};
	return property;
});

export const description: INodeProperties[] = [
	{
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		default: 'upgrade',
		options: [
			{
				name: 'Roll Back',
				value: 'rollBack',
				description:
					'Start the old installation again and pause the new one, with the values the new one holds written back where they map',
			},
			{
				name: 'Upgrade',
				value: 'upgrade',
				description:
					'Install the new solution if needed, carry the values over, pause the old installation, start the new one',
			},
		],
	},
	{
		...solutionLocator,
		displayName: 'Current Solution',
		name: 'fromSolutionId',
		description: 'The solution the customer is on now (the old version)',
	},
	...targetFields,
	{
		displayName: 'Renamed Fields (JSON)',
		name: 'fieldRenames',
		type: 'json',
		default: '{}',
		description:
			'Fields the new version renamed: old field code → new field code, e.g. {"subject": "mailSubject"}. Other fields keep their code. A value whose field is gone is reported under "unmapped", never dropped silently.',
	},
	optionsCollection([autoSelectSingleOption, lostAnswerCheckOption, settingsOption]),
];

/**
 * Upgrade: locate both installations (list), read the old one (detail, bundle data), install the
 * new one (installSafely) unless it exists, read it, write the mapped values (PUT per step), PAUSE
 * the old, PLAY the new. Roll Back: the reverse. See upgrade/switchOver.ts for failures.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const item = readUpgradeItem(this, client, itemIndex, false);
	return item.direction === 'upgrade' ? await upgradeCustomer(item) : await rollBackCustomer(item);
}

/** The same reads and checks, and the output a real run would give; nothing is written. */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const item = readUpgradeItem(this, client, itemIndex, true);
	return item.direction === 'upgrade' ? await upgradeCustomer(item) : await rollBackCustomer(item);
}
