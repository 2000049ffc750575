import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getInstallation, listInstallations, setStatus } from '../../../shared/api/installation';
import {
	autoSelectSingleOption,
	optionsCollection,
} from '../../../shared/descriptions/common.descriptions';
import { ACTIVE, PAUSED, sameId, solutionIdOf, statusOf } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import { applyFieldChanges } from './ensureApply';
import {
	type DesiredField,
	type FieldChange,
	fieldValuesProperty,
	readDesiredFields,
	resolveFields,
	sameValue,
} from './ensureFields';
import {
	installBody,
	installFields,
	lostAnswerCheckOption,
	readInstallInput,
	settingsOption,
} from './installInput';
import { installSafely, TitleTakenError } from './installSafely';
import { newInstallation } from './create.operation';
import { reportDuplicates } from './reportDuplicates';
import { Reported } from '../types';

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
	optionsCollection([
		autoSelectSingleOption,
		lostAnswerCheckOption,
		{
			displayName: 'Pause Other Active Copies',
			name: 'pauseDuplicates',
			type: 'boolean',
			default: false,
			description:
				'Whether to pause the other active installations with this solution and title (they are reported on the error output either way). The oldest one is the one Ensure keeps.',
		},
		settingsOption,
	]),
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

	const listed = await existing(client, input.solutionId, input.title, itemIndex);
	let found = listed.id;
	let created = false;
	if (found === undefined && client.preview) {
		// Checked as the real run checks (connection settings); nothing is installed.
		await installBody(this, client, input, itemIndex);
		return previewNew(input.solutionId, input.title, desired, target);
	}
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
	if (client.preview) {
		const after = target ?? before;
		return await finish(installation, before, after, created, changes, true, listed.others, id, {
			ctx: this,
			client,
			itemIndex,
			title: input.title,
		});
	}
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
	return await finish(installation, before, after, created, changes, false, listed.others, id, {
		ctx: this,
		client,
		itemIndex,
		title: input.title,
	});
}

/** The output, the same in Preview (plus `preview: true`), with the other active copies reported. */
async function finish(
	installation: IDataObject,
	before: number | undefined,
	after: number | undefined,
	created: boolean,
	changes: FieldChange[],
	preview: boolean,
	others: IDataObject[],
	keeper: number,
	run: { ctx: IExecuteFunctions; client: AlbatoClient; itemIndex: number; title: string },
) {
	delete installation.bundles;
	installation.status = after ?? installation.status ?? null;
	const statusChanged = before !== undefined && after !== undefined && before !== after;
	const output = {
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
		...(preview ? { preview: true } : {}),
	} as IDataObject;
	if (!others.length) return output;
	return new Reported(output, await reportDuplicates(others, keeper, output, preview, run));
}

/** Preview of an installation Ensure would create: its field values' current values are not known yet (`from: null`). */
function previewNew(
	solutionId: number,
	title: string,
	desired: DesiredField[],
	target: number | undefined,
): IDataObject {
	const { preview, ...installation } = newInstallation(solutionId, title);
	return {
		installation,
		created: true,
		changed: {
			fields: desired.map(({ automation, step, code, value }) => ({
				automation,
				step,
				code,
				from: null,
				to: value,
				bundleId: null,
				stepId: null,
			})),
			status: target === undefined ? null : { from: null, to: target },
		},
		unchanged: false,
		preview,
	};
}

/**
 * The end user's installation of this solution with this title: the oldest, when there are several;
 * and the others that are active (listed as active), which Ensure reports.
 */
async function existing(
	client: AlbatoClient,
	solutionId: number,
	title: string,
	itemIndex: number,
): Promise<{ id: number | undefined; others: IDataObject[] }> {
	const matches = (await listInstallations(client, itemIndex)).filter((installation) => {
		const solution = solutionIdOf(installation);
		return installation.title === title && (solution === undefined || sameId(solution, solutionId));
	});
	const ids = matches.map((installation) => Number(installation.id)).filter(Number.isFinite);
	const id = ids.length ? Math.min(...ids) : undefined;
	const others = matches.filter(
		(installation) => Number(installation.id) !== id && statusOf(installation) === ACTIVE,
	);
	return { id, others };
}
