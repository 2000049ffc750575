/**
 * Run history: what a control call records, and what the emulator keeps. A run is
 * Albato's "bundle event"; its steps are a list of levels, each level a list of step results
 * (docs.albato.com "Getting Solution History"). Kept in a file of its own, with no imports (and the status codes, its one value), so that
 * types.ts and the handlers can both use it without an import circle.
 */

/** Outcome names the emulator maps to its run/step status codes (see RUN_STATUS). */
export type RunOutcome = 'succeeded' | 'failed' | 'inProgress';

/**
 * Run and step status codes. Albato's page shows only `status: 1` (a run and steps that
 * succeeded) and gives no names: 2 (failed) and 0 (in progress) are the emulator's choices.
 */
export const RUN_STATUS: Record<RunOutcome, number> = { inProgress: 0, succeeded: 1, failed: 2 };

/** A date: "YYYY-MM-DD HH:MM:SS" (read as UTC), an ISO 8601 text, epoch milliseconds, or a Date. */
export type RunDateInput = string | number | Date;

export interface RunStepInput {
	/** Default 'succeeded'; a number is used as the raw status code. */
	status?: RunOutcome | number;
	/** Default: the bundle step id at this position (or 100000 + level). */
	triggerActionId?: number;
	/** Default null for a failed step, else "Step <n> done". */
	resultMessage?: string | null;
	/** Default "Emulated step error" for a failed step, else null. */
	error?: string | null;
	hasActiveRerun?: boolean;
	warning?: string | null;
	warningData?: unknown[];
	behaviourType?: string | null;
	/** Default: the run's date. */
	dateCreated?: RunDateInput;
	/** Extra keys of GET /bundle/events/steps/{id} (default {requestData, responseData}). */
	detail?: Record<string, unknown>;
}

export interface RunInput {
	bundleId: number;
	/** Default: from the steps (any failed → failed, else any in progress → inProgress), else 'succeeded'. */
	outcome?: RunOutcome;
	/** Raw run status code; wins over `outcome`. */
	status?: number;
	/** Raw event code. Default 6 (the code in Albato's example; its meaning is not documented). */
	event?: number;
	/** Default now. */
	dateCreated?: RunDateInput;
	/**
	 * Levels of steps (list of lists). Default: one level per step of the bundle, in order, all
	 * succeeded; for 'failed' the last level fails; for 'inProgress' the last level is still running.
	 */
	steps?: RunStepInput[][];
	/** Default: the next run id (from 3061464101). */
	id?: number;
}

export interface RunStepRecord {
	id: number;
	eventId: number;
	triggerActionId: number;
	resultMessage: string | null;
	status: number;
	error: string | null;
	hasActiveRerun: boolean;
	dateCreated: number;
	behaviourType: string | null;
	token: string;
	warning: string | null;
	warningData: unknown[];
	stepLevel: number;
	detail: Record<string, unknown>;
}

/** A recorded run; dates in epoch milliseconds (rendered per the `runDates` variant). */
export interface RunRecord {
	id: number;
	bundleId: number;
	status: number;
	event: number;
	dateCreated: number;
	steps: RunStepRecord[][];
}

/** An end user's billing plan (fixtures.ts PLANS). */
export interface PlanFixture {
	id: number;
	title: string;
	/** Transactions a month. */
	trxLimit: number;
}
