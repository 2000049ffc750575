/**
 * Installation → Ensure found other active installations with the same solution and title beside
 * the one it keeps (the oldest): made by a race it could not see (another worker, a list lagging
 * past Lost Answer Check), or by hand. Each is reported, paired to the item, with
 * `details.duplicateOf`; each is paused first (in Preview: would be), kept, never deleted, unless
 * Options → Pause Other Active Copies is off (or not set, before node version 4: `pausesOtherCopies`).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { setStatus } from '../../../shared/api/installation';
import { pausesOtherCopies } from '../../../shared/descriptions/versions';
import type { AlbatoClient } from '../../../shared/transport/client';

/** Another active installation with the same solution and title as the one Ensure keeps. */
class DuplicateFoundError extends NodeOperationError {
	readonly details: IDataObject;

	constructor(
		ctx: IExecuteFunctions,
		itemIndex: number,
		title: string,
		duplicateId: number,
		keeper: number,
		paused: boolean | undefined,
		pauseError?: Error,
	) {
		const state =
			paused === true
				? 'it is now paused'
				: pauseError
					? `it could not be paused: ${pauseError.message}`
					: 'both are active';
		super(
			ctx.getNode(),
			`Installation ${duplicateId} duplicates installation ${keeper} ("${title}"): ${state}`,
			{
				itemIndex,
				description:
					`Ensure keeps the oldest, ${keeper}, and converged it. ${duplicateId} was not made by this item: ` +
					'another execution installed it at the same time, its list lagged longer than Lost Answer Check, or it was made by hand. ' +
					(paused === true
						? 'Delete it in Albato, or ignore it.'
						: "Pause it (Installation → Pause, or Ensure's Options → Pause Other Active Copies), then delete it in Albato."),
			},
		);
		this.details = { duplicateOf: keeper, installationId: duplicateId, paused: paused === true };
	}
}

/** The item that keeps the installation. */
interface Keeping {
	ctx: IExecuteFunctions;
	client: AlbatoClient;
	itemIndex: number;
	title: string;
	/** Pause them whatever Options → Pause Other Active Copies says (Installation → Upgrade). */
	pause?: boolean;
	/**
	 * Installation → Upgrade's Preview, which still reaches here as a flag: the same as calling
	 * previewDuplicates. Ensure's Preview calls previewDuplicates.
	 */
	preview?: boolean;
}

/** What became of one copy: paused, or the pause's error; neither when it was not paused. */
interface PauseOutcome {
	paused?: boolean;
	pauseError?: Error;
}

/** Reports each copy, paused first unless Options → Pause Other Active Copies is off. */
export async function reportDuplicates(
	others: IDataObject[],
	keeper: number,
	output: IDataObject,
	keeping: Keeping,
): Promise<Error[]> {
	if (keeping.preview === true) return await previewDuplicates(others, keeper, output, keeping);
	const { client, itemIndex } = keeping;
	const pause = async (id: number): Promise<PauseOutcome> => {
		try {
			await setStatus(client, id, 'PAUSE', itemIndex);
			return { paused: true };
		} catch (error) {
			return { pauseError: error as Error };
		}
	};
	return await reported(others, keeper, output, keeping, pause);
}

/**
 * Preview: nothing is paused; each copy a real run would pause is reported as paused, and each entry
 * of `duplicates` says `preview: true`.
 */
export async function previewDuplicates(
	others: IDataObject[],
	keeper: number,
	output: IDataObject,
	keeping: Keeping,
): Promise<Error[]> {
	const reports = await reported(others, keeper, output, keeping, async () => ({ paused: true }));
	output.duplicates = (output.duplicates as IDataObject[]).map((entry) => ({
		...entry,
		preview: true,
	}));
	return reports;
}

async function reported(
	others: IDataObject[],
	keeper: number,
	output: IDataObject,
	{ ctx, itemIndex, title, pause }: Keeping,
	pauseCopy: (id: number) => Promise<PauseOutcome>,
): Promise<Error[]> {
	const option = (ctx.getNodeParameter('options', itemIndex, {}) as IDataObject).pauseDuplicates;
	const pauseAsked = pause === true || pausesOtherCopies(ctx.getNode(), option);
	const reports: DuplicateFoundError[] = [];
	for (const other of others) {
		const id = Number(other.id);
		const { paused, pauseError }: PauseOutcome = pauseAsked ? await pauseCopy(id) : {};
		reports.push(new DuplicateFoundError(ctx, itemIndex, title, id, keeper, paused, pauseError));
	}
	output.duplicates = reports.map((report) => ({ ...report.details }));
	return reports;
}
