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
	alreadySet,
	fieldValuesProperties,
	readDesiredFields,
	resolveFields,
} from './ensureFields';
import {
	installBody,
	installFields,
	lostAnswerCheckOption,
	readInstallInput,
	settingsOption,
} from './installInput';
import { installSafely, TitleTakenError } from './installSafely';

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

export const description: INodeProperties[] = [
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

	const listed = await existing(client, input.solutionId, input.title, itemIndex);
	let found = listed.id;
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
	const changes = fields.filter((field) => !alreadySet(field));
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
	// The answer first, the large installation last (n8n shows keys in this order).
	const others = listed.others.filter((other) => !sameId(other.id, id));
	return {
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
		...(others.length
			? { notice: otherNotice(input.title, others), otherInstallations: others }
			: {}),
		installation,
	} as IDataObject;
}

/** Says that the end user has other installations of the solution (legitimate, but a changed title makes one). */
function otherNotice(title: string, others: IDataObject[]): string {
	const names = others.map((other) => `"${String(other.title)}" (${String(other.id)})`).join(', ');
	return `The end user has ${others.length} other installation${others.length > 1 ? 's' : ''} of this solution: ${names}. Ensure found "${title}" by its exact title; if one of these was meant, use its exact title.`;
}

/**
 * The end user's installation of this solution with this title (the oldest, when there are several),
 * and the other installations of the solution, for the output's notice.
 */
async function existing(
	client: AlbatoClient,
	solutionId: number,
	title: string,
	itemIndex: number,
): Promise<{ id: number | undefined; others: IDataObject[] }> {
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
	return { id: ids.length ? Math.min(...ids) : undefined, others };
}
