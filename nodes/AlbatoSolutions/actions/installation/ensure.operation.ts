import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getInstallation, listInstallations, setStatus } from '../../../shared/api/installation';
import {
	autoSelectSingleOption,
	optionsCollection,
} from '../../../shared/descriptions/common.descriptions';
import { ACTIVE, PAUSED, sameId, solutionIdOf, statusOf } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import { applyFieldChanges } from './ensureApply';
import { fieldValuesProperty, readDesiredFields, resolveFields, sameValue } from './ensureFields';
import {
	installBody,
	installFields,
	lostAnswerCheckOption,
	readInstallInput,
	settingsOption,
} from './installInput';
import { installSafely, TitleTakenError } from './installSafely';

export const option = {
	name: 'Ensure',
	action: 'Ensure an installation exists in the desired state',
	description:
		'Install the solution if the end user has no installation with this title, change only the field values that differ, then start or pause it. Safe to repeat: never makes a second installation.',
};

export const description: INodeProperties[] = [
	...installFields,
	fieldValuesProperty,
	{
		displayName: 'Status',
		name: 'desiredStatus',
		type: 'options',
		default: 'active',
		description: 'The status the installation must end in',
		options: [
			{ name: 'Active', value: 'active', description: 'Start it if it is paused' },
			{
				name: 'Leave as Is',
				value: 'leave',
				description: 'A new installation keeps the status the service gives it',
			},
			{ name: 'Paused', value: 'paused', description: 'Pause it if it is active' },
		],
	},
	optionsCollection([autoSelectSingleOption, lostAnswerCheckOption, settingsOption]),
];

const WANTED = { active: ACTIVE, paused: PAUSED } as const;

/**
 * Converges the end user's installation (end user, solution, title) to the desired state: installs
 * it when missing (installSafely, refusing a second one), changes only the field values that differ
 * (pausing and restarting an active installation around them), then starts or pauses it as asked.
 * Safe to repeat, and to run twice at once: see docs/reliability.md (Installation → Ensure).
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const input = readInstallInput(this, itemIndex);
	const desired = readDesiredFields(this, itemIndex);
	const wantedStatus = this.getNodeParameter('desiredStatus', itemIndex, 'active') as string;
	const target = WANTED[wantedStatus as keyof typeof WANTED] as number | undefined;

	let found = await existing(client, input.solutionId, input.title, itemIndex);
	let created = false;
	if (found === undefined) {
		try {
			const installation = await installSafely(this, client, {
				solutionId: input.solutionId,
				title: input.title,
				body: await installBody(this, client, input, itemIndex),
				itemIndex,
				refuseDuplicateTitle: true,
				checkWindow: input.checkWindow,
			});
			found = Number(installation.id);
			created = true;
		} catch (error) {
			// Another item or execution installed it since the first read: converge that one.
			if (!(error instanceof TitleTakenError)) throw error as Error;
			found = Number(error.existingId);
		}
	}
	const id = found;

	let installation = await getInstallation(client, id, { withBundles: true, itemIndex });
	const fields = await resolveFields(this, client, installation, desired, itemIndex);
	const changes = fields.filter((field) => !sameValue(field.from, field.value));
	const before = statusOf(installation);
	// Pausing first when it must end paused: no restart between the updates and the pause.
	if (target === PAUSED && before !== PAUSED) {
		installation = { ...installation, ...(await setStatus(client, id, 'PAUSE', itemIndex)) };
	}
	if (changes.length) await applyFieldChanges(this, client, id, changes, itemIndex);
	let after = target === PAUSED ? PAUSED : before;
	if (target === ACTIVE) {
		// Read again: the updates may have paused and restarted it, or another execution changed it.
		const now = statusOf(await getInstallation(client, id, { itemIndex }));
		if (now !== ACTIVE)
			installation = { ...installation, ...(await setStatus(client, id, 'PLAY', itemIndex)) };
		after = ACTIVE;
	}
	delete installation.bundles;
	installation.status = after ?? installation.status ?? null;
	const statusChanged = before !== undefined && after !== undefined && before !== after;
	return {
		installation,
		created,
		changed: {
			fields: changes.map(({ automation, step, code, from, value, bundleId, stepId }) => ({
				automation,
				step,
				code,
				from,
				to: value,
				bundleId,
				stepId,
			})),
			status: statusChanged ? { from: before, to: after } : null,
		},
		unchanged: !created && changes.length === 0 && !statusChanged,
	} as IDataObject;
}

/** The end user's installation of this solution with this title: the oldest, when there are several. */
async function existing(
	client: AlbatoClient,
	solutionId: number,
	title: string,
	itemIndex: number,
) {
	const matches = (await listInstallations(client, itemIndex)).filter((installation) => {
		const solution = solutionIdOf(installation);
		return installation.title === title && (solution === undefined || sameId(solution, solutionId));
	});
	const ids = matches.map((installation) => Number(installation.id)).filter(Number.isFinite);
	return ids.length ? Math.min(...ids) : undefined;
}
