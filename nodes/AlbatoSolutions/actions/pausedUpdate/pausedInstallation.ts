/** The pause state of one installation within one group of field updates, and the pause rules. */
import { NodeOperationError } from 'n8n-workflow';

import { getInstallation, setStatus } from '../../../shared/api/installation';
import { ACTIVE, PAUSED, statusOf } from '../../../shared/readers/shapes';
import { errorSays, outcomeOf } from '../../../shared/transport/errors';
import { MAX_PAUSES, type UpdateGroup, type UpdateJob } from './updateGroup';

/** No clear verdict: the call may or may not have been applied (lost answer, unusable 2xx). */
const isUnsettled = (error: unknown) => errorSays(error, 'unsettled');
/** The service said no with a 4xx: nothing was applied. */
const isAppliedNothing = (error: unknown) => errorSays(error, 'appliedNothing');
/** The PUT was refused because the installation is active. */
const isNeedsPause = (error: unknown) => errorSays(error, 'needsPause');

/** A PLAY is sent at most this often (PLAY is idempotent). */
const PLAY_ATTEMPTS = 2;

/**
 * Whoever pauses starts again: this execution sends PLAY at the end if and only if it sent a PAUSE
 * that may have been applied (answered, or failed without a 4xx), and it pauses only an installation
 * it saw active (see `PausedInstallation.confirmActive`). So the installation ends as it was before this
 * execution's own first pause, and one paused by someone else is never started by us.
 */
const owesPlayAfterPause = (pauseError?: unknown) => !isAppliedNothing(pauseError);

/**
 * A PUT refused because the installation is active again (another execution started it): pause
 * again (one PAUSE shared by the group's refused PUTs) and send that PUT again, at most MAX_PAUSES
 * times per item.
 */
const pausesAgain = (error: unknown, attempt: number) =>
	isNeedsPause(error) && attempt < MAX_PAUSES;

/**
 * What a failed PAUSE means for its items. Answer lost or still unsettled: it may have been
 * applied, so carry on (`pausesAgain` covers the case it was not) and start again at the end. A
 * refusal (4xx) or another failure (5xx after retries) fails the items; only the refusal owes no
 * PLAY (`owesPlayAfterPause`). A PAUSE's unreadable 2xx was already confirmed by a read (setStatus).
 */
const pauseFailureOf = (error: unknown) => (isUnsettled(error) ? undefined : (error as Error));

/**
 * A PLAY whose answer is lost, or unreadable and not confirmed, is sent once more (PLAY is
 * idempotent); so is one answered with the installation still paused. A PLAY answered 404: the
 * installation was removed, nothing is left paused.
 */
const playsAgain = (error: unknown, attempt: number) =>
	isUnsettled(error) && attempt < PLAY_ATTEMPTS;

/** The pause state of one installation within one execution. */
export class PausedInstallation {
	/** True once this execution sent a PAUSE that may have been applied: it then owes a PLAY. */
	owesPlay = false;
	/** The status as far as this execution knows it (undefined: not known). */
	status: number | undefined;
	/** Counts finished PAUSE calls, so a PUT refused before the latest pause is just sent again. */
	private epoch = 0;
	private pausing: Promise<Error | undefined> | undefined;

	constructor(
		private readonly group: UpdateGroup,
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
					this.group.execution.client,
					this.installationId,
					'PAUSE',
					this.itemIndex,
				);
				this.owesPlay = true;
				this.status = statusOf(answer) ?? PAUSED;
				return undefined;
			} catch (error) {
				if (owesPlayAfterPause(error)) this.owesPlay = true;
				this.status = undefined;
				return pauseFailureOf(error);
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
	 * make us pause, and then start, an installation someone paused (`owesPlayAfterPause`). Shared by
	 * the group's PUTs.
	 */
	private confirming: Promise<number | undefined> | undefined;
	private confirmActive(): Promise<number | undefined> {
		this.confirming ??= (async () => {
			try {
				const installation = await getInstallation(
					this.group.execution.client,
					this.installationId,
					{
						itemIndex: this.itemIndex,
					},
				);
				return statusOf(installation);
			} catch {
				return PAUSED; // cannot tell: do not pause; the PUT is tried again, and fails with its own error
			} finally {
				this.confirming = undefined;
			}
		})();
		return this.confirming;
	}

	/** PUT, pausing again when another execution started the installation meanwhile (`pausesAgain`). */
	async update(job: UpdateJob) {
		for (let attempt = 1; ; attempt++) {
			const epoch = this.epoch;
			try {
				await this.group.put(job);
				return;
			} catch (error) {
				if (!pausesAgain(error, attempt)) return this.group.fail(job, error);
				// (When neither the detail nor the list shows a status, a read cannot tell: the refusal is
				// believed.)
				if (!this.owesPlay && this.status === PAUSED) {
					const status = await this.confirmActive();
					// Paused (maybe by another execution right now): send the PUT again without pausing. A
					// field error is then refused again, until MAX_PAUSES attempts; nothing is paused or
					// started.
					if (status === PAUSED) {
						if (!this.group.execution.mayGoOn()) return this.group.fail(job, error);
						continue;
					}
					this.status = status;
				}
				const pauseError = this.pausing
					? await this.pausing
					: this.epoch === epoch
						? await this.pause()
						: undefined;
				if (pauseError) return this.group.fail(job, pauseError);
				if (!this.group.execution.mayGoOn()) return;
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
					this.group.execution.client,
					this.installationId,
					'PLAY',
					this.itemIndex,
					{ owed: true },
				);
				// A PLAY the service answered with the installation still paused did not start it: once
				// more, then it is a failed restart (never reported as started).
				if (statusOf(answer) === PAUSED) {
					if (attempt < PLAY_ATTEMPTS) continue;
					this.status = PAUSED;
					return {
						error: new NodeOperationError(
							this.group.execution.ctx.getNode(),
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
				if (playsAgain(error, attempt)) continue;
				return { error: error as Error };
			}
		}
	}
}
