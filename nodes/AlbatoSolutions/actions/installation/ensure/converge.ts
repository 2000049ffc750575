/**
 * Ensure's third step: the field changes applied (pausing and restarting an active installation
 * around them), then the installation started or paused as asked.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getInstallation, setStatus } from '../../../../shared/api/installation';
import { ACTIVE, PAUSED, statusOf } from '../../../../shared/readers/shapes';
import { applyFieldChanges } from './applyFieldChanges';
import type { EnsureItem } from './desiredState';
import type { Differences, FieldChange } from './fieldChanges';

/** The installation as Ensure leaves it: its status before and after. */
export interface Converged {
	installation: IDataObject;
	changes: FieldChange[];
	status: { before: number | undefined; after: number | undefined };
}

export async function converge(
	item: EnsureItem,
	id: number,
	{ installation: read, changes }: Differences,
): Promise<Converged> {
	const { ctx, client, itemIndex } = item;
	let installation = read;
	const wanted = item.desired.status;
	const before = statusOf(installation);
	// Pausing first when it must end paused: no restart between the updates and the pause.
	if (wanted === PAUSED && before !== PAUSED)
		installation = { ...installation, ...(await setStatus(client, id, 'PAUSE', itemIndex)) };
	// The updates start from the installation just read (no second read); they say how they left it.
	const updated = changes.length
		? await applyFieldChanges(ctx, client, { installationId: id, installation, changes }, itemIndex)
		: undefined;
	if (wanted !== ACTIVE) {
		const after = wanted === PAUSED ? PAUSED : before;
		return { installation, changes, status: { before, after } };
	}
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
				ctx.getNode(),
				`Installation ${id} is still paused: the service answered PLAY but did not start it`,
				{
					itemIndex,
					description: `${changes.length ? 'Its field values are as asked. ' : ''}Start it with Installation → Start, or run Ensure again.`,
				},
			);
		installation = { ...installation, ...played };
	}
	return { installation, changes, status: { before, after: ACTIVE } };
}
