import type { IExecuteFunctions } from 'n8n-workflow';

import type { AlbatoClient } from '../../shared/transport/client';
import { mapLimited } from '../../shared/transport/mapLimited';
import type { RolloutGuard } from './rolloutGuard';
import type { ItemResults, Unit } from './types';

/** What one execution's steps share: read once by the router's `connect`. */
export interface RunContext {
	ctx: IExecuteFunctions;
	client: AlbatoClient;
	continueOnFail: boolean;
	/** Request Options → Preview. */
	preview: boolean;
	/** Items in Flight, as a number of units at once (Auto: its ceiling). */
	itemsInFlight: number;
	guard: RolloutGuard;
	/** Each item's result or error, as items end. */
	results: ItemResults;
}

/**
 * The one scheduler, for single items (one-item units) and batch units alike. Units start in the
 * order given, `itemsInFlight` at once: 1 keeps the classic order of calls; more only overlaps the
 * waiting (under Auto the client's slow start decides how many requests go out at once). The canary
 * units (holding a canary item) run first, all of them to the end, then the others. The rollout
 * guard is told each time a unit ends; once it says stop (without Continue On Fail: the first
 * failure), no further unit starts and those in flight finish. Units never started leave their
 * items without a result: the output reports them as not attempted.
 */
export async function runUnits(run: RunContext, units: Unit[]): Promise<void> {
	const { guard } = run;
	const task = async (unit: Unit) => {
		await runUnit(run, unit);
		return guard.mayStart();
	};
	// With a guard option set, units start as the client's window allows (not all at once under
	// Auto).
	const each = (entries: Unit[]) =>
		guard.active
			? startEach(entries, () => Math.min(run.itemsInFlight, run.client.window), task)
			: mapLimited(entries, run.itemsInFlight, task);
	const isCanary = (unit: Unit) => guard.canaryOf(unit.itemIndexes) !== undefined;
	if (!guard.mayStart()) return;
	await each(units.filter(isCanary));
	if (!guard.mayStart()) return;
	await each(units.filter((unit) => !isCanary(unit)));
}

/** A unit that fails as a whole fails each of its items. */
async function runUnit(run: RunContext, unit: Unit): Promise<void> {
	let answers: ItemResults;
	try {
		answers = await unit.run();
	} catch (error) {
		answers = new Map(unit.itemIndexes.map((itemIndex) => [itemIndex, error as Error]));
	}
	record(run, answers, run.guard.canaryOf(unit.itemIndexes));
}

/**
 * Keeps the items' results and tells the guard. `canary`: the canary item of the unit they ran in;
 * when given, any failure among them stops the run.
 */
export function record(run: RunContext, answers: ItemResults, canary?: number): void {
	for (const [itemIndex, result] of answers) {
		run.results.set(itemIndex, result);
		run.guard.ended(result instanceof Error, itemIndex, canary);
	}
}

/**
 * Runs `task` over `entries` in order, at most `atOnce()` at a time (asked each time one may start:
 * the client's window, so under Auto the units started follow the slow start instead of all
 * starting at once and waiting for a request slot), until a task answers false. With the guard on,
 * that keeps "no further unit starts" meaningful whatever Items in Flight is.
 */
async function startEach<T>(
	entries: T[],
	atOnce: () => number,
	task: (entry: T) => Promise<boolean>,
): Promise<void> {
	let next = 0;
	let running = 0;
	let stopped = false;
	await new Promise<void>((resolve, reject) => {
		const pump = () => {
			while (!stopped && next < entries.length && running < Math.max(1, atOnce())) {
				const entry = entries[next++];
				running++;
				task(entry)
					.then((go) => {
						if (!go) stopped = true;
					}, reject)
					.finally(() => {
						running--;
						pump();
					});
			}
			if (running === 0 && (stopped || next >= entries.length)) resolve();
		};
		pump();
	});
}
