/**
 * The pause state of one installation within one run of field updates (rules 1–4 in
 * pauseAndResume.ts).
 */
import { NodeOperationError } from 'n8n-workflow';

import { getInstallation, setStatus } from '../../../shared/api/installation';
import { ACTIVE, PAUSED, statusOf } from '../../../shared/readers/shapes';
import { AlbatoApiError, outcomeOf } from '../../../shared/transport/errors';
import { fail, MAX_PAUSES, put, type UpdateJob, type UpdateRun } from './updateRun';

// AlbatoApiError's named checks of the same names, for any error (false when not the transport's).
/** No clear verdict: the call may or may not have been applied (lost answer, unusable 2xx). */
const unsettled = (error: unknown) => error instanceof AlbatoApiError && error.unsettled;
/** The service said no with a 4xx: nothing was applied. */
const appliedNothing = (error: unknown) => error instanceof AlbatoApiError && error.appliedNothing;
/** The PUT was refused because the installation is active. */
const needsPause = (error: unknown) => error instanceof AlbatoApiError && error.needsPause;

/** The pause state of one installation within one execution. */
export class PauseGuard {
	/** True once this execution sent a PAUSE that may have been applied: it then owes a PLAY. */
	owesPlay = false;
	/** The status as far as this execution knows it (undefined: not known). */
	status: number | undefined;
	/** Counts finished PAUSE calls, so a PUT refused before the latest pause is just sent again. */
	private epoch = 0;
	private pausing: Promise<Error | undefined> | undefined;

	constructor(
		private readonly run: UpdateRun,
		private readonly installationId: number,
		private readonly itemIndex: number,
	) {}

	/**
	 * One PAUSE at a time; callers arriving while it runs share it. Resolves to the error of a failed
	 * pause.
	 */
	pause(): Promise<Error | undefined> {
		this.pausing ??= (async () => {
			try {
				const answer = await setStatus(
					this.run.client,
					this.installationId,
					'PAUSE',
					this.itemIndex,
				);
				this.owesPlay = true;
				this.status = statusOf(answer) ?? PAUSED;
				return undefined;
			} catch (error) {
				if (!appliedNothing(error)) this.owesPlay = true; // it may have been applied
				this.status = undefined;
				// Answer lost or unreadable: go on; a PUT refused as "active" pauses again (rule 3).
				return unsettled(error) ? undefined : (error as Error);
			} finally {
				this.epoch++;
				this.pausing = undefined;
			}
		})();
		return this.pausing;
	}

	/**
	 * Before this execution pauses an installation it has not paused itself, on the word of a refused
	 * PUT: is it really active? A field error whose text happens to say "paused" or "active" must not
	 * make us pause, and then start, an installation someone paused (rule 1). Shared by the group's
	 * PUTs.
	 */
	private confirming: Promise<number | undefined> | undefined;
	private confirmActive(): Promise<number | undefined> {
		this.confirming ??= (async () => {
			try {
				const installation = await getInstallation(this.run.client, this.installationId, {
					itemIndex: this.itemIndex,
				});
				return statusOf(installation);
			} catch {
				return PAUSED; // cannot tell: do not pause; the PUT is tried again, and fails with its own error
			} finally {
				this.confirming = undefined;
			}
		})();
		return this.confirming;
	}

	/** PUT, pausing again when another execution started the installation meanwhile (rule 2). */
	async update(job: UpdateJob) {
		for (let attempt = 1; ; attempt++) {
			const epoch = this.epoch;
			try {
				await put(this.run, job);
				return;
			} catch (error) {
				if (!needsPause(error) || attempt >= MAX_PAUSES) return fail(this.run, job, error);
				// (When neither the detail nor the list shows a status, a read cannot tell: the refusal is
				// believed.)
				if (!this.owesPlay && this.status === PAUSED) {
					const status = await this.confirmActive();
					// Paused (maybe by another execution right now): send the PUT again without pausing. A
					// field error is then refused again, until MAX_PAUSES attempts; nothing is paused or
					// started.
					if (status === PAUSED) {
						if (this.run.stopped) return fail(this.run, job, error);
						continue;
					}
					this.status = status;
				}
				const pauseError = this.pausing
					? await this.pausing
					: this.epoch === epoch
						? await this.pause()
						: undefined;
				if (pauseError) return fail(this.run, job, pauseError);
				if (this.run.stopped) return;
			}
		}
	}

	/** PLAY if this execution paused; resolves to the error of a failed restart, if any. */
	async restart(): Promise<{ removed?: boolean; error?: Error }> {
		if (!this.owesPlay) return {};
		for (let attempt = 1; ; attempt++) {
			try {
				// Owed even when the execution was cancelled meanwhile: never left paused by a Stop.
				const answer = await setStatus(
					this.run.client,
					this.installationId,
					'PLAY',
					this.itemIndex,
					{ owed: true },
				);
				// A PLAY the service answered with the installation still paused did not start it: once
				// more, then it is a failed restart (never reported as started).
				if (statusOf(answer) === PAUSED) {
					if (attempt < 2) continue;
					this.status = PAUSED;
					return {
						error: new NodeOperationError(
							this.run.ctx.getNode(),
							'the service answered PLAY twice, but the installation is still paused',
							{ itemIndex: this.itemIndex },
						),
					};
				}
				this.status = statusOf(answer) ?? ACTIVE;
				return {};
			} catch (error) {
				if (outcomeOf(error) === 'notFound') {
					this.status = undefined;
					return { removed: true };
				}
				if (unsettled(error) && attempt < 2) continue; // rule 4
				return { error: error as Error };
			}
		}
	}
}
