import type { NodeExecution } from './execution';
import { mapLimited } from '../../shared/transport/mapLimited';
import type { Unit } from './types';

/**
 * The one scheduler, for single items (one-item units) and batch units alike. Units start in the
 * order given, as many at once as concurrency.ts decides (Items in Flight): 1 keeps the classic
 * order of calls; more only overlaps the waiting (under Auto the client's slow start decides how
 * many requests go out at once). The canary units (holding a canary item) run first, all of them
 * to the end, then the others. The rollout guard hears each item as it ends; once it says stop
 * (without Continue On Fail: the first failure), no further unit starts, and those in flight start
 * no further work of their own and finish. Units never started leave their items without a result:
 * the output reports them as not attempted.
 */
export async function executeUnits(execution: NodeExecution, units: Unit[]): Promise<void> {
	const { guard } = execution;
	execution.schedule(units);
	const task = async (unit: Unit) => {
		await executeUnit(execution, unit);
		return guard.mayStart();
	};
	// With a guard option set, asked again each time a unit may start: units start as the client's
	// window allows (not all at once under Auto).
	const each = (entries: Unit[]) =>
		guard.active
			? startEach(entries, () => execution.unitsAtOnce(), task)
			: mapLimited(entries, execution.unitsAtOnce(), task);
	const isCanary = (unit: Unit) => guard.canaryOf(unit.itemIndexes) !== undefined;
	if (!guard.mayStart()) return;
	await each(units.filter(isCanary));
	if (!guard.mayStart()) return;
	await each(units.filter((unit) => !isCanary(unit)));
}

/** A unit that fails as a whole fails each of its items that has no result yet. */
async function executeUnit(execution: NodeExecution, unit: Unit): Promise<void> {
	try {
		await unit.execute();
	} catch (error) {
		execution.failOpen(unit.itemIndexes, error as Error);
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
