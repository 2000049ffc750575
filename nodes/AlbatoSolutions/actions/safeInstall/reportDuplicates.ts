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

/** The item that keeps the installation. In Preview nothing is paused (a report says it would be). */
interface Keeping {
	ctx: IExecuteFunctions;
	client: AlbatoClient;
	itemIndex: number;
	title: string;
	preview: boolean;
	/** Pause them whatever Options → Pause Other Active Copies says (Installation → Upgrade). */
	pause?: boolean;
}

export async function reportDuplicates(
	others: IDataObject[],
	keeper: number,
	output: IDataObject,
	{ ctx, client, itemIndex, title, preview, pause }: Keeping,
): Promise<Error[]> {
	const option = (ctx.getNodeParameter('options', itemIndex, {}) as IDataObject).pauseDuplicates;
	const pauseAsked = pause === true || pausesOtherCopies(ctx.getNode(), option);
	const reports: DuplicateFoundError[] = [];
	for (const other of others) {
		const id = Number(other.id);
		let paused: boolean | undefined;
		let pauseError: Error | undefined;
		if (pauseAsked && !preview) {
			try {
				await setStatus(client, id, 'PAUSE', itemIndex);
				paused = true;
			} catch (error) {
				pauseError = error as Error;
			}
		} else if (pauseAsked) paused = true;
		reports.push(new DuplicateFoundError(ctx, itemIndex, title, id, keeper, paused, pauseError));
	}
	output.duplicates = reports.map((report) => ({
		...report.details,
		...(preview ? { preview: true } : {}),
	}));
	return reports;
}
