/**
 * How Bundle Data → Update runs its items: per installation one read, at most one pause, the PUTs,
 * and one start, with every half-failure settled. The rules (also in the README):
 *
 * 1. Whoever pauses starts again. This execution sends PLAY at the end if and only if it sent a PAUSE,
 *    and it pauses only an installation it saw active (in the read, in the list, or in a PUT refused
 *    with "pause first", confirmed by a fresh read when it had read it paused: a field error may say
 *    "paused" too). So the installation ends as it was before this execution's own first pause,
 *    and an installation paused by someone else is never started by us. Two overlapping executions:
 *    the one that saw it paused (because the other paused it) does not start it; if the other starts
 *    it in the meantime, the refused PUT makes this one pause it again, and then start it too.
 * 2. A PUT refused because the installation is active again: pause again (one PAUSE shared by the
 *    group's refused PUTs) and send that PUT again, at most MAX_PAUSES times per item.
 * 3. A PAUSE or PLAY whose 2xx answer is unreadable is confirmed by reading the installation (setStatus).
 *    A PAUSE whose answer is lost or still unsettled may have been applied: carry on (rule 2 covers the case
 *    it was not), and start again at the end. A PAUSE refused (4xx) changed nothing: its items fail,
 *    no PLAY. Other PAUSE failures (5xx after retries) fail the items and still send PLAY.
 * 4. A PLAY whose answer is lost, or unreadable and not confirmed, is sent once more; PLAY is idempotent.
 *    PLAY 404: the installation was removed; nothing is left paused.
 * 5. A failed restart never turns successful updates into failures: they carry `restartError`. Without
 *    Continue On Fail the run then fails with the restart error, after every group has finished.
 * 6. Without Continue On Fail, the first failed item stops every further PUT of the run (PUTs already
 *    sent finish); every installation paused so far is still started again.
 * 7. Concurrency: groups of different installations run at once, up to Items in Flight; in a group,
 *    PUTs to different steps run at once and PUTs to the same step keep item order. At most Items in
 *    Flight requests are open at any time.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { updateStepData } from '../../../shared/api/bundleData';
import {
	bundlesOf,
	getInstallation,
	listInstallations,
	setStatus,
	stepsOf,
} from '../../../shared/api/installation';
import { ACTIVE, PAUSED, sameId, statusOf } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import { AlbatoApiError, outcomeOf, retold } from '../../../shared/transport/errors';
import type { OperationResult } from '../types';
import { updatedOutput } from './fieldValues';

/** Pauses (and PUT attempts) per item when other executions keep starting the installation again. */
export const MAX_PAUSES = 5;

export interface UpdateJob {
	itemIndex: number;
	installationId: number;
	stepId: number;
	bundleId: number;
	data: IDataObject;
	labels?: Record<string, string>; // field code → label picked by (mapper mode)
	pauseAndResume: boolean;
}

/** What all groups of one execution share. */
export interface UpdateRun {
	ctx: IExecuteFunctions;
	client: AlbatoClient;
	continueOnFail: boolean;
	results: Map<number, OperationResult | Error>;
	/** Set by the first failed item without Continue On Fail: no further PUT starts. */
	stopped: boolean;
	/** Restarts that failed, thrown after all groups finished when Continue On Fail is off. */
	restartFailures: NodeApiError[];
}

/** No readable answer: the call may or may not have been applied (lost answer, 2xx with a body we cannot use). */
const outcomeUnknown = (error: unknown) => error instanceof AlbatoApiError && error.unsettled;
/** The service refused the call: nothing was applied. */
const refused = (error: unknown) => error instanceof AlbatoApiError && error.refusal;
/** The PUT was refused because the installation is active. */
const needsPause = (error: unknown) => error instanceof AlbatoApiError && error.needsPause;

function fail(run: UpdateRun, job: UpdateJob, error: unknown) {
	run.results.set(job.itemIndex, error as Error);
	if (!run.continueOnFail) run.stopped = true;
}

async function put(run: UpdateRun, job: UpdateJob) {
	const response = await updateStepData(run.client, job.stepId, job.data, job.itemIndex);
	run.results.set(job.itemIndex, {
		...response,
		id: response.id ?? job.stepId,
		bundleId: job.bundleId,
		installationId: job.installationId,
		...updatedOutput(job.data, job.labels),
	});
}

/** Runs `task` for each job: jobs of the same step one after another in item order, different steps at once. */
async function inStepOrder(
	run: UpdateRun,
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
				if (run.stopped) return;
				await task(job);
			}
		}),
	);
}

/** "Fail" mode (or a paused installation the user manages): just the PUTs. */
export async function updateDirect(run: UpdateRun, jobs: UpdateJob[]) {
	await inStepOrder(run, jobs, async (job) => {
		try {
			await put(run, job);
		} catch (error) {
			fail(run, job, error);
		}
	});
}

/** The pause state of one installation within one execution. */
class PauseGuard {
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

	/** One PAUSE at a time; callers arriving while it runs share it. Resolves to the error of a failed pause. */
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
				if (!refused(error)) this.owesPlay = true; // it may have been applied
				this.status = undefined;
				// Answer lost or unreadable: go on; a PUT refused as "active" pauses again (rule 3).
				return outcomeUnknown(error) ? undefined : (error as Error);
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
	 * make us pause, and then start, an installation someone paused (rule 1). Shared by the group's PUTs.
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
				// (When neither the detail nor the list shows a status, a read cannot tell: the refusal is believed.)
				if (!this.owesPlay && this.status === PAUSED) {
					const status = await this.confirmActive();
					// Paused (maybe by another execution right now): send the PUT again without pausing. A field
					// error is then refused again, until MAX_PAUSES attempts; nothing is paused or started.
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
				const answer = await setStatus(
					this.run.client,
					this.installationId,
					'PLAY',
					this.itemIndex,
				);
				this.status = statusOf(answer) ?? ACTIVE;
				return {};
			} catch (error) {
				if (outcomeOf(error) === 'notFound') {
					this.status = undefined;
					return { removed: true };
				}
				if (outcomeUnknown(error) && attempt < 2) continue; // rule 4
				return { error: error as Error };
			}
		}
	}
}

/** Reads the status from the list when the detail has none; undefined when neither tells. */
async function statusFromList(run: UpdateRun, installationId: number, itemIndex: number) {
	try {
		const list = await listInstallations(run.client, itemIndex);
		const entry = list.find((candidate) => sameId(candidate.id, installationId));
		return entry ? statusOf(entry) : undefined;
	} catch {
		return undefined; // the PUTs will tell (422 "pause first" means active)
	}
}

/** "Pause, Update, Then Start Again" for the items of one installation. */
export async function updateGuarded(run: UpdateRun, jobs: UpdateJob[]) {
	const { ctx, client, results } = run;
	const { installationId } = jobs[0];
	const first = jobs[0].itemIndex;
	let installation: IDataObject;
	try {
		installation = await getInstallation(client, installationId, {
			withBundles: true,
			withStatus: false,
			itemIndex: first,
		});
	} catch (error) {
		for (const job of jobs) fail(run, job, error);
		return;
	}
	for (const job of jobs) {
		// A step of another installation would be refused only after the pause; catch it first.
		const bundle = bundlesOf(installation).find((candidate) => sameId(candidate.id, job.bundleId));
		if (!bundle || !stepsOf(bundle).some((step) => sameId(step.id, job.stepId))) {
			fail(
				run,
				job,
				new NodeOperationError(
					ctx.getNode(),
					`Step ${job.stepId} of automation ${job.bundleId} is not part of installation ${installationId}`,
					{
						itemIndex: job.itemIndex,
						description:
							'Nothing was changed. Pick the automation and step again for this installation.',
					},
				),
			);
		}
	}
	jobs = jobs.filter((job) => !results.has(job.itemIndex));
	if (jobs.length === 0 || run.stopped) return;

	const guard = new PauseGuard(run, installationId, first);
	guard.status = statusOf(installation) ?? (await statusFromList(run, installationId, first));
	if (guard.status === ACTIVE) {
		const pauseError = await guard.pause();
		if (pauseError) for (const job of jobs) fail(run, job, pauseError);
	}
	let restart: Awaited<ReturnType<PauseGuard['restart']>> = {};
	try {
		if (jobs.some((job) => !results.has(job.itemIndex)))
			await inStepOrder(run, jobs, (job) => guard.update(job));
	} finally {
		restart = await guard.restart();
	}
	report(run, jobs, guard, restart);
}

/** Gives every item of the group the outcome of the pause and restart (rule 5). */
function report(
	run: UpdateRun,
	jobs: UpdateJob[],
	guard: PauseGuard,
	restart: { removed?: boolean; error?: Error },
) {
	const { ctx, results } = run;
	const { installationId } = jobs[0];
	const done = jobs.filter(
		(job) => results.has(job.itemIndex) && !(results.get(job.itemIndex) instanceof Error),
	);
	let restartError: NodeApiError | undefined;
	if (restart.error) {
		const cause = restart.error as Error & { description?: string };
		const applied = done.length
			? `The updates of item${done.length > 1 ? 's' : ''} ${done.map((job) => job.itemIndex).join(', ')} were applied. `
			: '';
		const failed = jobs.find((job) => results.get(job.itemIndex) instanceof Error);
		const stoppedBy = failed
			? `Item ${failed.itemIndex} failed: ${(results.get(failed.itemIndex) as Error).message}. `
			: '';
		restartError = retold(ctx.getNode(), cause, {
			message: `Installation ${installationId} was paused for the update and could not be started again: ${cause.message}`,
			description: `${applied}${stoppedBy}Start it with Installation → Start.${cause.description ? ` (${cause.description})` : ''}`,
			itemIndex: (done[0] ?? jobs[0]).itemIndex,
		});
		run.restartFailures.push(restartError);
	}
	const told = new Set<Error>(); // one error may stand for several items (e.g. a failed pause)
	for (const job of jobs) {
		const result = results.get(job.itemIndex);
		if (result instanceof Error) {
			// The failed items say it too, so nobody misses a paused installation.
			if (restartError && !done.length && !told.has(result)) {
				told.add(result);
				const failed = result as Error & { description?: string | null };
				failed.description = `${failed.description ? `${failed.description} ` : ''}Also: ${restartError.message}. Start it with Installation → Start.`;
			}
			continue;
		}
		if (!result) continue;
		Object.assign(result, {
			pausedForUpdate: guard.owesPlay,
			installationStatus: restart.removed ? null : (guard.status ?? null),
			...(restart.removed ? { installationRemoved: true } : {}),
			...(restartError
				? { restartError: `${restartError.message}. Start it with Installation → Start.` }
				: {}),
		});
	}
}
