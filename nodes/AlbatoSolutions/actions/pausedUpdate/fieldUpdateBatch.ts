/** A batch of field updates (PUTs of step data): what its jobs share, and each job's steps. */
import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import { updateStepData } from '../../../shared/api/bundleData';
import type { AlbatoClient } from '../../../shared/transport/client';
import type { OperationResult } from '../types';

/**
 * Pauses (and PUT attempts) per item when other executions keep starting the installation again.
 */
export const MAX_PAUSES = 5;

export interface UpdateJob {
	/** The item whose parameters (and, in partner mode, End User ID) the calls use. */
	itemIndex: number;
	/** Where its outcome goes in `results` (the item index, for Bundle Data → Update). */
	key: number;
	installationId: number;
	stepId: number;
	bundleId: number;
	data: IDataObject;
	/** Field code → the label the user picked it by (mapper mode). */
	labels?: Record<string, string>;
	pauseAndResume: boolean;
}

/** What all groups of one batch share. */
export interface FieldUpdateBatch {
	ctx: IExecuteFunctions;
	client: AlbatoClient;
	continueOnFail: boolean;
	results: Map<number, OperationResult | Error>;
	/** Set by the first failed item without Continue On Fail: no further PUT starts. */
	stopped: boolean;
	/** Restarts that failed, thrown after all groups finished when Continue On Fail is off. */
	restartFailures: NodeApiError[];
}

/** A batch with nothing done yet. */
export function newFieldUpdateBatch(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	continueOnFail: boolean,
): FieldUpdateBatch {
	return { ctx, client, continueOnFail, results: new Map(), stopped: false, restartFailures: [] };
}

/**
 * The job failed. Stop at the first failure: without Continue On Fail, no further PUT of the batch
 * starts (PUTs already sent finish; every installation paused so far is still started again).
 */
export function fail(batch: FieldUpdateBatch, job: UpdateJob, error: unknown) {
	batch.results.set(job.key, error as Error);
	if (!batch.continueOnFail) batch.stopped = true;
}

export async function put(batch: FieldUpdateBatch, job: UpdateJob) {
	const response = await updateStepData(batch.client, job.stepId, job.data, job.itemIndex);
	batch.results.set(job.key, {
		...response,
		id: response.id ?? job.stepId,
		bundleId: job.bundleId,
		installationId: job.installationId,
		...updatedOutput(job.data, job.labels),
	});
}

/**
 * What an update says it changed: `updated` keyed by field code (as sent; expressions may use it),
 * and `updatedFields` naming each field by its label too (null when the label is not known).
 */
export function updatedOutput(data: IDataObject, labels: Record<string, string> = {}): IDataObject {
	return {
		updated: data,
		updatedFields: Object.entries(data).map(([code, value]) => ({
			label: Object.prototype.hasOwnProperty.call(labels, code) ? labels[code] : null,
			code,
			value,
		})),
	};
}

/**
 * Runs `task` for each job: jobs of the same step one after another in item order, different steps
 * at once (the client keeps the requests within Items in Flight).
 */
export async function inStepOrder(
	batch: FieldUpdateBatch,
	jobs: UpdateJob[],
	task: (job: UpdateJob) => Promise<void>,
) {
	const chains = new Map<string, UpdateJob[]>();
	for (const job of jobs) {
		const chain = chains.get(String(job.stepId));
		if (chain) chain.push(job);
		else chains.set(String(job.stepId), [job]);
	}
	await Promise.all(
		[...chains.values()].map(async (chain) => {
			for (const job of chain) {
				if (batch.stopped) return;
				await task(job);
			}
		}),
	);
}
