/**
 * One group of field updates (PUTs of step data) and what it reports: the items of one
 * installation, or of "Fail" mode, run by Bundle Data → Update's units or by Ensure's steps.
 */
import type { IDataObject } from 'n8n-workflow';

import { updateStepData } from '../../../shared/api/bundleData';
import { STEPS_AT_ONCE } from '../../../shared/transport/concurrency';
import { mapLimited } from '../../../shared/transport/mapLimited';
import type { Execution, OperationResult } from '../types';

/**
 * Pauses (and PUT attempts) per item when other executions keep starting the installation again.
 */
export const MAX_PAUSES = 5;

export interface UpdateJob {
	/** The item whose parameters (and, in partner mode, End User ID) the calls use. */
	itemIndex: number;
	installationId: number;
	stepId: number;
	bundleId: number;
	data: IDataObject;
	/** Field code → the label the user picked it by (mapper mode). */
	labels?: Record<string, string>;
	pauseAndResume: boolean;
}

/**
 * What the updates need of the execution that runs them: the router's (Bundle Data → Update), or
 * Ensure's own for one item's steps.
 */
export type UpdateExecution = Pick<
	Execution,
	'ctx' | 'client' | 'errorOutput' | 'mayGoOn' | 'ended' | 'failsAtEnd'
>;

/**
 * The jobs of one group as they end. A failure is told to the execution at once (the rollout guard
 * counts it as it happens, and may stop the PUTs not yet sent); a success is told once the group
 * knows how its installation ends (`report`), since a failed restart changes what it says.
 */
export class UpdateGroup {
	/** Each job's outcome, for the restart report: which of this installation's updates applied. */
	readonly outcomes = new Map<UpdateJob, OperationResult | Error>();

	constructor(readonly execution: UpdateExecution) {}

	fail(job: UpdateJob, error: unknown): void {
		this.outcomes.set(job, error as Error);
		this.execution.ended(job.itemIndex, error as Error);
	}

	/** The job's PUT. */
	async put(job: UpdateJob): Promise<void> {
		const { client } = this.execution;
		const response = await updateStepData(client, job.stepId, job.data, job.itemIndex);
		this.outcomes.set(job, {
			...response,
			id: response.id ?? job.stepId,
			bundleId: job.bundleId,
			installationId: job.installationId,
			...updatedOutput(job.data, job.labels),
		});
	}

	/** Whether the job has an outcome yet. */
	ended(job: UpdateJob): boolean {
		return this.outcomes.has(job);
	}

	/** Tells the execution the job's outcome. */
	tell(job: UpdateJob): void {
		const outcome = this.outcomes.get(job);
		if (outcome !== undefined) this.execution.ended(job.itemIndex, outcome);
	}

	/** Tells the execution every job's outcome (a failure told before, as retold since). */
	report(): void {
		for (const job of this.outcomes.keys()) this.tell(job);
	}

	/**
	 * Runs `task` for each job: jobs of the same step one after another in item order, different
	 * steps STEPS_AT_ONCE (concurrency.ts: all; the client keeps the requests within Items in
	 * Flight). A job not yet started
	 * once the execution may not go on is never started: it has no outcome.
	 */
	async inStepOrder(jobs: UpdateJob[], task: (job: UpdateJob) => Promise<void>): Promise<void> {
		const chains = new Map<string, UpdateJob[]>();
		for (const job of jobs) {
			const chain = chains.get(String(job.stepId));
			if (chain) chain.push(job);
			else chains.set(String(job.stepId), [job]);
		}
		await mapLimited([...chains.values()], STEPS_AT_ONCE, async (chain) => {
			for (const job of chain) {
				if (!this.execution.mayGoOn()) return true;
				await task(job);
			}
			return true;
		});
	}
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
