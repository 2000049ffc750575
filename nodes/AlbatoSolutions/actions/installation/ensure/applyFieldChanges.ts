/**
 * Installation → Ensure's field changes, through Bundle Data → Update's pause/update/restore
 * contract (actions/pausedUpdate/pauseAndResume.ts): one PUT per step, an active installation
 * paused once and started again once, whoever pauses starts again, a failed restart reported as
 * "left paused".
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	type UpdateExecution,
	updateWhilePaused,
	type UpdateJob,
} from '../../pausedUpdate/pauseAndResume';
import type { AlbatoClient } from '../../../../shared/transport/client';
import { withSentence } from '../../withSentence';
import type { FieldChange } from './fieldChanges';

/** The field changes of one installation, as Ensure has just read it with its bundles. */
interface FieldChangesOf {
	installationId: number;
	/** Not read again: the updates start from it. */
	installation: IDataObject;
	changes: FieldChange[];
}

/** Resolves to the installation's status as the updates left it (undefined: not known). */
export async function applyFieldChanges(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	{ installationId, installation, changes }: FieldChangesOf,
	itemIndex: number,
): Promise<number | undefined> {
	const steps = new Map<number, UpdateJob>();
	for (const change of changes) {
		const job = steps.get(change.stepId) ?? {
			itemIndex,
			installationId,
			bundleId: change.bundleId,
			stepId: change.stepId,
			data: {} as IDataObject,
			pauseAndResume: true,
		};
		job.data[change.code] = change.value as IDataObject[string];
		steps.set(change.stepId, job);
	}
	const execution = stepsExecution(ctx, client);
	const jobs = [...steps.values()];
	const { group, status } = await updateWhilePaused(execution, jobs, installation);
	if (execution.atEnd) throw execution.atEnd;
	const failed = jobs.find((job) => group.outcomes.get(job) instanceof Error);
	if (!failed) return status;
	const error = group.outcomes.get(failed) as Error;
	const applied = jobs.filter((job) => {
		const result = group.outcomes.get(job);
		return result !== undefined && !(result instanceof Error);
	});
	if (!applied.length) throw error;
	const list = applied.map((job) => `step ${job.stepId} (${Object.keys(job.data).join(', ')})`);
	throw withSentence(
		ctx.getNode(),
		error,
		`Applied before the failure: ${list.join('; ')}. Running Ensure again changes only what still differs.`,
		itemIndex,
	);
}

/**
 * The execution one item's steps run in: the first failed step stops the others (the installation
 * is still restored), and a failed restart fails the item.
 */
function stepsExecution(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
): UpdateExecution & { atEnd?: Error } {
	let failed = false;
	const execution: UpdateExecution & { atEnd?: Error } = {
		ctx,
		client,
		// A failed restart fails the item (`atEnd`): nothing goes to the error output on its own.
		errorOutput: false,
		mayGoOn: () => !failed,
		ended: (_itemIndex, result) => {
			if (result instanceof Error) failed = true;
		},
		failsAtEnd: (error) => {
			execution.atEnd ??= error;
		},
	};
	return execution;
}
