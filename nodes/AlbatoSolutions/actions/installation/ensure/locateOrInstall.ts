/**
 * Ensure's first step: the end user's installation of the solution with exactly this title, found
 * in the list or installed safely (never a second one).
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { listInstallations } from '../../../../shared/api/installation';
import { ACTIVE, sameId, solutionIdOf, statusOf } from '../../../../shared/readers/shapes';
import { installBody } from '../../safeInstall/installInput';
import { installSafely, TitleTakenError } from '../../safeInstall/installSafely';
import type { EnsureItem } from './desiredState';

interface Listed {
	id: number | undefined;
	/** The other installations of the solution, for the output's notice. */
	others: IDataObject[];
	/** Installations with the same solution and title that are active: reported (duplicateOf). */
	activeCopies: IDataObject[];
}

/** The installation Ensure converges, and how it was found. */
export interface Located {
	id: number;
	created: boolean;
	listed: Listed;
}

/**
 * The installation as listed; when there is none, a snapshot without connection settings fails here
 * (it cannot be installed again).
 */
export async function locate(item: EnsureItem): Promise<Listed> {
	const { ctx, itemIndex, desired } = item;
	const { solutionId, title } = desired.input;
	const listed = await existing(item);
	if (listed.id === undefined && !desired.canInstall)
		throw new NodeOperationError(
			ctx.getNode(),
			`Snapshot (item ${itemIndex}): the end user has no installation "${title}" of solution ${solutionId} to restore, and the snapshot has no "connectionSettings" to install it again`,
			{
				itemIndex,
				description:
					'Nothing was sent. Add "connectionSettings" (step ID → chosen value, as Installation → Create takes them) to the snapshot to install it again, or restore it into an installation with this exact title.',
			},
		);
	return listed;
}

/** The listed installation, or one installed now (installSafely, refusing a second one). */
export async function locateOrInstall(item: EnsureItem): Promise<Located> {
	const { ctx, client, itemIndex } = item;
	const { input } = item.desired;
	const listed = await locate(item);
	if (listed.id !== undefined) return { id: listed.id, created: false, listed };
	try {
		const installation = await installSafely(ctx, client, {
			solutionId: input.solutionId,
			title: input.title,
			body: await installBody(ctx, client, input, itemIndex),
			itemIndex,
			refuseDuplicateTitle: true,
			titleScope: 'solution',
			checkWindow: input.checkWindow,
		});
		return { id: Number(installation.id), created: true, listed };
	} catch (error) {
		// Another item or execution installed it since the first read: converge that one.
		if (!(error instanceof TitleTakenError)) throw error as Error;
		return { id: Number(error.existingId), created: false, listed };
	}
}

/**
 * The end user's installation of this solution with this title (the oldest, when there are
 * several), the other installations of the solution, for the output's notice, and the other active
 * copies.
 */
async function existing({ client, itemIndex, desired }: EnsureItem): Promise<Listed> {
	const { solutionId, title } = desired.input;
	const installations = await listInstallations(client, itemIndex);
	const ofSolution = (installation: IDataObject) => {
		const solution = solutionIdOf(installation);
		return solution !== undefined && sameId(solution, solutionId);
	};
	const matches = installations.filter(
		(installation) =>
			installation.title === title &&
			(solutionIdOf(installation) === undefined || ofSolution(installation)),
	);
	const ids = matches.map((installation) => Number(installation.id)).filter(Number.isFinite);
	const others = installations.filter(ofSolution).map(
		(installation) =>
			({
				id: installation.id,
				title: installation.title,
				status: statusOf(installation) ?? null,
			}) as IDataObject,
	);
	const id = ids.length ? Math.min(...ids) : undefined;
	const activeCopies = matches.filter(
		(installation) => Number(installation.id) !== id && statusOf(installation) === ACTIVE,
	);
	return { id, others, activeCopies };
}
