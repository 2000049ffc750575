import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getInstallation, listInstallations, setStatus } from '../../../shared/api/installation';
import {
	autoSelectSingleOption,
	optionsCollection,
} from '../../../shared/descriptions/common.descriptions';
import { ACTIVE, PAUSED, sameId, solutionIdOf, statusOf } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import { applyFieldChanges } from './ensureApply';
import {
	alreadySet,
	type DesiredField,
	type FieldChange,
	fieldValuesProperties,
	readDesiredFields,
	resolveFields,
} from './ensureFields';
import { type DesiredState, readSnapshot, SNAPSHOT_EXAMPLE } from './ensureSnapshot';
import {
	installBody,
	installFields,
	type InstallInput,
	type InstallOptions,
	lostAnswerCheck,
	lostAnswerCheckOption,
	readInstallInput,
	settingsOption,
} from './installInput';
import { toObject } from '../params';
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

/** Ensure's Title: the same field as Create's, saying that the exact title is Ensure's key. */
const ensureInstallFields = installFields.map((property) =>
	property.name === 'title'
		? {
				...property,
				description:
					"The exact title is how Ensure finds the installation: the end user's installation of this solution with exactly this title (every character counts, e.g. – and -). With no such installation, Ensure installs one. The output names any other installation of the solution the end user has.",
			}
		: property,
);

/** Shown only when the desired state is given parameter by parameter (the default, as before). */
const fromParameters = (property: INodeProperties): INodeProperties => ({
	...property,
	displayOptions: {
		...property.displayOptions,
		show: { ...property.displayOptions?.show, desiredStateMode: ['parameters'] },
	},
});

export const description: INodeProperties[] = [
	{
		displayName: 'Desired State',
		name: 'desiredStateMode',
		type: 'options',
		default: 'parameters',
		description: 'How the desired state is given',
		options: [
			{
				name: 'Define Below',
				value: 'parameters',
				description: 'Solution, title, templates, field values and status, each below',
			},
			{
				name: 'Snapshot (JSON)',
				value: 'snapshot',
				description:
					'All of it in one JSON object, as Installation → Get Snapshot outputs it: restores every field value with its type, and the status',
			},
		],
	},
	{
		displayName: 'Snapshot',
		name: 'snapshot',
		type: 'json',
		default: '',
		required: true,
		displayOptions: { show: { desiredStateMode: ['snapshot'] } },
		description: `The output item of Installation → Get Snapshot, as it is (an expression of the whole item, or its JSON text): ${SNAPSHOT_EXAMPLE}. Unknown keys or wrong types are refused before any request. It may add "connectionSettings" (needed only to install the installation again if it is gone) and "settings".`,
	},
	...[
		...ensureInstallFields,
		...fieldValuesProperties,
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
		} satisfies INodeProperties,
	].map(fromParameters),
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

/** Ensure's input from a snapshot (Desired State → Snapshot (JSON)), checked before any request. */
function fromSnapshot(ctx: IExecuteFunctions, itemIndex: number) {
	const state: DesiredState = readSnapshot(
		ctx,
		ctx.getNodeParameter('snapshot', itemIndex, '') as unknown,
		itemIndex,
	);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as InstallOptions;
	const settings =
		state.settings ??
		(options.settings === undefined
			? undefined
			: toObject(ctx, options.settings, 'Settings', itemIndex));
	const input: InstallInput = {
		solutionId: state.solutionId,
		title: state.title,
		choices: state.connectionSettings ?? {},
		templateIds: state.templateIds,
		settings,
		checkWindow: lostAnswerCheck(ctx, options.lostAnswerCheck, itemIndex),
		options,
	};
	return {
		input,
		desired: state.desired,
		wantedStatus: state.status as string,
		canInstall: state.connectionSettings !== undefined,
	};
}

/**
 * Converges the end user's installation (end user, solution, title) to the desired state: installs
 * it when missing (installSafely, refusing a second one), changes only the field values that differ
 * (pausing and restarting an active installation around them), then starts or pauses it as asked.
 * Safe to repeat, and to run twice at once: see docs/reliability.md (Installation → Ensure).
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const { input, desired, wantedStatus, canInstall } =
		this.getNodeParameter('desiredStateMode', itemIndex, 'parameters') === 'snapshot'
			? fromSnapshot(this, itemIndex)
			: {
					input: readInstallInput(this, itemIndex),
					desired: readDesiredFields(this, itemIndex),
					wantedStatus: this.getNodeParameter('desiredStatus', itemIndex, 'active') as string,
					canInstall: true,
				};
	const target = WANTED[wantedStatus as keyof typeof WANTED] as number | undefined;

	const listed = await existing(client, input.solutionId, input.title, itemIndex);
	let found = listed.id;
	let created = false;
	if (found === undefined) {
		if (!canInstall)
			throw new NodeOperationError(
				this.getNode(),
				`Snapshot (item ${itemIndex}): the end user has no installation "${input.title}" of solution ${input.solutionId} to restore, and the snapshot has no "connectionSettings" to install it again`,
				{
					itemIndex,
					description:
						'Nothing was sent. Add "connectionSettings" (step ID → chosen value, as Installation → Create takes them) to the snapshot to install it again, or restore it into an installation with this exact title.',
				},
			);
		if (client.preview) {
			// Checked as the real run checks (connection settings); nothing is installed.
			await installBody(this, client, input, itemIndex);
			return previewNew(input.solutionId, input.title, desired, target);
		}
		try {
			const installation = await installSafely(this, client, {
				solutionId: input.solutionId,
				title: input.title,
				body: await installBody(this, client, input, itemIndex),
				itemIndex,
				refuseDuplicateTitle: true,
				titleScope: 'solution',
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
	const changes = fields.filter((field) => !alreadySet(field));
	const before = statusOf(installation);
	const run = { ctx: this, client, itemIndex, title: input.title };
	if (client.preview) {
		const after = target ?? before;
		return await finish(
			installation,
			before,
			after,
			created,
			changes,
			listed,
			id,
			input.title,
			run,
		);
	}
	// Pausing first when it must end paused: no restart between the updates and the pause.
	if (target === PAUSED && before !== PAUSED) {
		installation = { ...installation, ...(await setStatus(client, id, 'PAUSE', itemIndex)) };
	}
	// The updates start from the installation just read (no second read); they say how they left it.
	const updated = changes.length
		? await applyFieldChanges(this, client, id, changes, itemIndex, installation)
		: undefined;
	let after = target === PAUSED ? PAUSED : before;
	if (target === ACTIVE) {
		// Started again by the updates (the PLAY's answer): active. Otherwise read again: another
		// execution may have changed it since the first read.
		const now =
			updated === ACTIVE ? ACTIVE : statusOf(await getInstallation(client, id, { itemIndex }));
		if (now !== ACTIVE) {
			const played = await setStatus(client, id, 'PLAY', itemIndex);
			// A PLAY answered with the installation still paused did not start it: never reported as
			// active.
			if (statusOf(played) === PAUSED)
				throw new NodeOperationError(
					this.getNode(),
					`Installation ${id} is still paused: the service answered PLAY but did not start it`,
					{
						itemIndex,
						description: `${changes.length ? 'Its field values are as asked. ' : ''}Start it with Installation → Start, or run Ensure again.`,
					},
				);
			installation = { ...installation, ...played };
		}
		after = ACTIVE;
	}
	return await finish(installation, before, after, created, changes, listed, id, input.title, run);
}

/**
 * The output, the same in Preview (plus `preview: true`), with the other active copies (same
 * solution and title) reported beside it.
 */
async function finish(
	installation: IDataObject,
	before: number | undefined,
	after: number | undefined,
	created: boolean,
	changes: FieldChange[],
	listed: Listed,
	id: number,
	title: string,
	run: { ctx: IExecuteFunctions; client: AlbatoClient; itemIndex: number; title: string },
) {
	const preview = run.client.preview;
	delete installation.bundles;
	installation.status = after ?? installation.status ?? null;
	const statusChanged = before !== undefined && after !== undefined && before !== after;
	// The answer first, the large installation last (n8n shows keys in this order).
	const others = listed.others.filter((other) => !sameId(other.id, id));
	const output = {
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
		...(others.length ? { notice: otherNotice(title, others), otherInstallations: others } : {}),
		...(preview ? { preview: true } : {}),
		installation,
	} as IDataObject;
	const copies = listed.activeCopies.filter((copy) => !sameId(copy.id, id));
	if (!copies.length) return output;
	return new Reported(output, await reportDuplicates(copies, id, output, preview, run));
}

/**
 * Preview of an installation Ensure would create: its field values' current values are not known
 * yet (`from: null`).
 */
function previewNew(
	solutionId: number,
	title: string,
	desired: DesiredField[],
	target: number | undefined,
): IDataObject {
	const { preview, ...installation } = newInstallation(solutionId, title);
	return {
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
		installation,
	};
}

/**
 * Says that the end user has other installations of the solution (legitimate, but a changed title
 * makes one).
 */
function otherNotice(title: string, others: IDataObject[]): string {
	const names = others.map((other) => `"${String(other.title)}" (${String(other.id)})`).join(', ');
	return `The end user has ${others.length} other installation${others.length > 1 ? 's' : ''} of this solution: ${names}. Ensure found "${title}" by its exact title; if one of these was meant, use its exact title.`;
}

interface Listed {
	id: number | undefined;
	/** The other installations of the solution, for the output's notice. */
	others: IDataObject[];
	/** Installations with the same solution and title that are active: reported (duplicateOf). */
	activeCopies: IDataObject[];
}

/**
 * The end user's installation of this solution with this title (the oldest, when there are
 * several), the other installations of the solution, for the output's notice, and the other active
 * copies.
 */
async function existing(
	client: AlbatoClient,
	solutionId: number,
	title: string,
	itemIndex: number,
): Promise<Listed> {
	const installations = await listInstallations(client, itemIndex);
	const matches = installations.filter((installation) => {
		const solution = solutionIdOf(installation);
		return installation.title === title && (solution === undefined || sameId(solution, solutionId));
	});
	const ids = matches.map((installation) => Number(installation.id)).filter(Number.isFinite);
	const others = installations
		.filter((installation) => {
			const solution = solutionIdOf(installation);
			return solution !== undefined && sameId(solution, solutionId);
		})
		.map((installation) => {
			const status = statusOf(installation);
			return {
				id: installation.id,
				title: installation.title,
				status: status === ACTIVE ? 'active' : status === PAUSED ? 'paused' : null,
			} as IDataObject;
		});
	const id = ids.length ? Math.min(...ids) : undefined;
	const activeCopies = matches.filter(
		(installation) => Number(installation.id) !== id && statusOf(installation) === ACTIVE,
	);
	return { id, others, activeCopies };
}

export const effect = 'write';
export { execute as preview };
