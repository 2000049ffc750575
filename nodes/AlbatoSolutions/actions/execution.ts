/**
 * The router's one execution: Request Options and the client read once, the only results, the only
 * stop rule (the rollout guard, Continue On Fail included) and the only reading of Continue On
 * Fail. Units and batch plans see it as an `Execution` (types.ts).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { AlbatoClient } from '../../shared/transport/client';
import { unitsAtOnce } from '../../shared/transport/concurrency';
import { mapLimited } from '../../shared/transport/mapLimited';
import type { RolloutGuard } from './rolloutGuard';
import {
	type Execution,
	type ItemResults,
	type OperationResult,
	Reported,
	type Unit,
} from './types';

export interface ExecutionSettings {
	ctx: IExecuteFunctions;
	client: AlbatoClient;
	continueOnFail: boolean;
	/** Request Options → Preview. */
	preview: boolean;
	/** Request Options → Items in Flight, as set (AUTO_IN_FLIGHT: Auto). */
	itemsInFlight: number;
	guard: RolloutGuard;
}

export class NodeExecution implements Execution {
	readonly ctx: IExecuteFunctions;
	readonly client: AlbatoClient;
	readonly continueOnFail: boolean;
	readonly preview: boolean;
	readonly itemsInFlight: number;
	readonly guard: RolloutGuard;
	/** Each item's result or error, as items end. */
	readonly results: ItemResults = new Map();
	/** Errors that fail the node without Continue On Fail once every unit has ended. */
	readonly atEnd: Error[] = [];
	/** The canary item of the unit each item runs in, when it has one. */
	private readonly canaries = new Map<number, number>();

	constructor(settings: ExecutionSettings) {
		this.ctx = settings.ctx;
		this.client = settings.client;
		this.continueOnFail = settings.continueOnFail;
		this.preview = settings.preview;
		this.itemsInFlight = settings.itemsInFlight;
		this.guard = settings.guard;
	}

	get errorOutput(): boolean {
		return this.continueOnFail && this.ctx.getNode().onError === 'continueErrorOutput';
	}

	get guarded(): boolean {
		return this.guard.active;
	}

	mayGoOn(): boolean {
		return this.guard.mayStart();
	}

	ended(itemIndex: number, result: OperationResult | Error): void {
		this.results.set(itemIndex, result);
		this.guard.ended(result instanceof Error, itemIndex, this.canaries.get(itemIndex));
	}

	failsAtEnd(error: Error): void {
		this.atEnd.push(error);
	}

	/** Units to start at once now (concurrency.ts): with the guard on, as the client's window allows. */
	unitsAtOnce(): number {
		return unitsAtOnce(this.itemsInFlight, this.guarded ? this.client.window : undefined);
	}

	async inFlight<T>(entries: T[], task: (entry: T) => Promise<void>): Promise<void> {
		await mapLimited(entries, unitsAtOnce(this.itemsInFlight), async (entry) => {
			await task(entry);
			return true;
		});
	}

	/** Whether the node fails anyway: an item failed without Continue On Fail. */
	get failing(): boolean {
		return !this.continueOnFail && [...this.results.values()].some((r) => r instanceof Error);
	}

	/** The units about to run: a unit holding a canary item makes it the canary of all its items. */
	schedule(units: Unit[]): void {
		for (const unit of units) {
			const canary = this.guard.canaryOf(unit.itemIndexes);
			if (canary !== undefined)
				for (const itemIndex of unit.itemIndexes) this.canaries.set(itemIndex, canary);
		}
	}

	/** Each of these items without a result yet fails with `error`. */
	failOpen(itemIndexes: number[], error: Error): void {
		for (const itemIndex of itemIndexes)
			if (!this.results.has(itemIndex)) this.ended(itemIndex, error);
	}
}

/**
 * The same execution as a writing operation sees it under Preview: every result it reports is
 * marked `preview: true`.
 */
export function previewed(execution: Execution): Execution {
	return Object.create(execution, {
		ended: {
			value: (itemIndex: number, result: OperationResult | Error) =>
				execution.ended(itemIndex, markPreview(result)),
		},
	}) as Execution;
}

/**
 * `preview: true` on a result: each object of a list; a result with reports, and each report's
 * details (its error item then says it was found in Preview).
 */
export function markPreview(result: OperationResult | Error): OperationResult | Error {
	const mark = (data: IDataObject) => Object.assign(data, { preview: true });
	if (result instanceof Error) return result;
	if (Array.isArray(result)) result.forEach(mark);
	else if (!(result instanceof Reported)) mark(result);
	else {
		mark(result.result);
		for (const report of result.reports) {
			const { details } = report as Error & { details?: IDataObject };
			if (details) mark(details);
		}
	}
	return result;
}
