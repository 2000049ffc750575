/**
 * After an install (Create with Refuse Duplicate Title, and Ensure): other workers may have
 * installed the same title at the same moment, which no process-local lock can see. So the end
 * user's list is read again over the Lost Answer Check window; when an older installation (lower
 * ID) with the same title shows up, the one this item created is paused and reported as its
 * duplicate. Only the oldest stays running, and an installation this item did not create is never
 * touched.
 *
 * Why this holds with every writer using it: of two racing installs, the younger one's reads end a
 * full window after it was created, so later than a window after the older one was; a list that
 * lags by less than the window shows the older one in its last read at the latest.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { listInstallations, setStatus } from '../../../shared/api/installation';
import { PAUSED, sameId, solutionIdOf, statusOf } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';

/**
 * Which installations' titles count: any of the end user's (Create: a title names one
 * installation), or only this solution's (Ensure, whose key is solution and title: the same title
 * under another solution is another installation, never adopted or paused).
 */
export type TitleScope = 'endUser' | 'solution';

/**
 * Whether an installation has the request's title within its scope. One whose solution is not
 * told counts (it may be this solution's).
 */
export function titledAsRequested(
	request: { title: string; solutionId: number; titleScope: TitleScope },
	installation: IDataObject,
): boolean {
	if (installation.title !== request.title) return false;
	if (request.titleScope === 'endUser') return true;
	const solution = solutionIdOf(installation);
	return solution === undefined || sameId(solution, request.solutionId);
}

/**
 * Waits before each of the (at least 3) list reads, spread over the window (0, 0.1, 0.4, 1.0 of
 * it).
 */
export function recheckWaits(windowMs: number): number[] {
	return [0, 0.1, 0.3, 0.6].map((share) => Math.round(windowMs * share));
}

/**
 * An installation this item created that duplicates an older one: paused, and on the error output.
 */
class DuplicateInstallationError extends NodeOperationError {
	/** What the error output carries beside error and message (`details`). */
	readonly details: IDataObject;

	constructor(
		ctx: IExecuteFunctions,
		itemIndex: number,
		title: string,
		duplicate: IDataObject,
		keeper: number,
		pauseError?: Error,
	) {
		const paused = pauseError === undefined;
		super(
			ctx.getNode(),
			`Installation ${String(duplicate.id)} duplicates installation ${keeper} ("${title}"): it was installed by this item at the same time as another execution installed ${keeper}` +
				(paused ? ', and is paused' : `, and could not be paused: ${pauseError.message}`),
			{
				itemIndex,
				description:
					`Installation ${keeper} is the older one and stays as it is; ${String(duplicate.id)} ` +
					(paused
						? 'was paused so that the customer never runs two copies. Delete it in Albato, or ignore it.'
						: 'may be running next to it: pause it with Installation → Pause, then delete it in Albato.'),
			},
		);
		this.details = {
			duplicateOf: keeper,
			installationId: duplicate.id ?? null,
			paused,
		};
	}
}

/**
 * Reads the list over `checkWindow` ms; throws DuplicateInstallationError when an older
 * installation titled `title` appears. Resolves to false when not one read succeeded (nothing could
 * be checked).
 */
export async function containDuplicates(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	request: {
		title: string;
		solutionId: number;
		titleScope: TitleScope;
		itemIndex: number;
		checkWindow: number;
	},
	installation: IDataObject,
): Promise<boolean> {
	const { title, itemIndex } = request;
	const ours = Number(installation.id);
	if (!Number.isFinite(ours)) return false;
	let read = false;
	for (const wait of recheckWaits(request.checkWindow)) {
		if (wait > 0) await sleep(wait);
		let listed: IDataObject[];
		try {
			listed = await listInstallations(client, itemIndex);
			read = true;
		} catch {
			continue; // the next read may succeed; the window bounds the wait
		}
		const older = listed
			.filter((other) => titledAsRequested(request, other) && Number(other.id) < ours)
			.map((other) => Number(other.id));
		if (older.length === 0) continue;
		const keeper = Math.min(...older);
		let pauseError: Error | undefined;
		try {
			const answer = await setStatus(client, ours, 'PAUSE', itemIndex);
			Object.assign(installation, answer, { status: statusOf(answer) ?? PAUSED });
		} catch (error) {
			pauseError = error as Error;
		}
		throw new DuplicateInstallationError(ctx, itemIndex, title, installation, keeper, pauseError);
	}
	return read;
}
