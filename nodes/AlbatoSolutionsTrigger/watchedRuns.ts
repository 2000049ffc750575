/**
 * The runs one poll reads, shared by every kind that watches runs (Run Failed / Run Succeeded and
 * Automation Failing / Automation Recovered): the list is read once per poll, and the automations
 * named at most once.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	type Automation,
	automationNames,
	automationOf,
	type Automations,
	runsOfInstallation,
} from '../shared/api/automations';
import { listRuns, RUNS_PER_PAGE } from '../shared/api/run';
import { locatorValue } from '../shared/descriptions/common.descriptions';
import { runItem } from '../shared/readers/runs';
import { sameId } from '../shared/readers/shapes';
import type { PollScope } from './eventKind';
import { type Reach, reachOf, type ReadNeed } from './runReach';
import { readIdFilter } from './solutionFilter';

/**
 * Installation ID (Run Events): a picker since version 2, text at version 1; both are read here
 * (a locator's value, or the text as saved).
 */
export function readInstallationFilter(ctx: IPollFunctions): number | undefined {
	const raw = ctx.getNodeParameter('runInstallationId', '', { extractValue: true }) as unknown;
	const id = readIdFilter(raw);
	if (id !== 'bad') return id;
	const text = String(locatorValue(raw)).trim();
	throw new NodeOperationError(
		ctx.getNode(),
		`Installation ID (Run Events) must be an installation ID (a whole number, e.g. 5001), got "${text.slice(0, 40)}"`,
		{
			description:
				'Pick one installation from the list, give its ID, or leave it empty to watch every run',
		},
	);
}

export interface WatchedRuns {
	/** The runs read: newest first down to what the kinds need (runReach.ts). */
	runs: IDataObject[];
	/** Runs dated at or before this were left unread by a read stopped at a depth (runReach.ts). */
	floor: number | undefined;
	/**
	 * Names each automation (installations and their automations; nothing to do with an
	 * installation filter). Best effort unless `required` (a Solution filter: the names decide what
	 * is reported).
	 */
	name: (required: boolean) => Promise<void>;
	/** Whether a run belongs to the watched solution (always, without a Solution filter). */
	ofSolution: (run: IDataObject, solutionId: string | undefined) => boolean;
	/** A run's installation and automation names (null where not known). */
	namesOf: (run: IDataObject) => IDataObject;
	/** A run's automation, when known. */
	automationOf: (run: IDataObject) => Automation | undefined;
	/** A run as Run → Get Many gives it, with endUserId (partner mode) and its automation's names. */
	item: (run: IDataObject) => IDataObject;
}

/** What each kind needs of a poll's reads, by read (filled before the first read: planRead). */
const planned = new WeakMap<PollScope, Map<string, ReadNeed[]>>();

const readKey = (installationId: number | undefined) => `runs\n${installationId ?? ''}`;

/** Trigger mode, before any kind polls: one kind's need of the read of these runs. */
export function planRead(scope: PollScope, installationId: number | undefined, need: ReadNeed) {
	const needs = planned.get(scope) ?? new Map<string, ReadNeed[]>();
	planned.set(scope, needs);
	const key = readKey(installationId);
	needs.set(key, [...(needs.get(key) ?? []), need]);
}

/**
 * This poll's read of the runs (of one installation's automations, when given): once per poll, as
 * deep as the kinds planned need (none planned: a first poll's read).
 */
export async function readWatchedRuns(
	scope: PollScope,
	installationId: number | undefined,
): Promise<WatchedRuns> {
	const key = readKey(installationId);
	const reach = reachOf(planned.get(scope)?.get(key) ?? []);
	return await scope.once(key, async () => await readOnce(scope, installationId, reach));
}

async function readOnce(
	{ client, endUser }: PollScope,
	installationId: number | undefined,
	reach: Reach,
): Promise<WatchedRuns> {
	let automations: Automations = new Map();
	let runs: IDataObject[];
	const read = async (bundleId?: string) =>
		await listRuns(client, { bundleId, perPage: RUNS_PER_PAGE, enough: reach.enough() });
	if (installationId === undefined) runs = await read();
	else ({ runs, automations } = await runsOfInstallation(client, installationId, read));
	let named: Promise<void> | undefined;
	const automation = (run: IDataObject) => automationOf(automations, run.bundleId);
	const namesOf = (run: IDataObject) => {
		const found = automation(run);
		return {
			installationId: found?.installationId ?? null,
			installationTitle: found?.installationTitle ?? null,
			bundleTitle: found?.bundleTitle ?? null,
		};
	};
	return {
		runs,
		floor: reach.floor(),
		name: async (required) => {
			if (installationId !== undefined) return;
			named ??= automationNames(client).then((found) => void (automations = found));
			try {
				await named;
			} catch (error) {
				if (required) throw error as Error;
			}
		},
		ofSolution: (run, solutionId) => ofWatchedSolution(automation(run), solutionId),
		namesOf,
		automationOf: automation,
		item: (run) => ({
			...endUser,
			...namesOf(run),
			...runItem(run, 0, automation(run)?.stepTitles),
		}),
	};
}

/**
 * Whether a run's automation belongs to an installation of the watched solution (always, without a
 * Solution filter). A run whose installation is not known (removed since) is not reported then.
 */
function ofWatchedSolution(found: Automation | undefined, solutionId: string | undefined): boolean {
	if (solutionId === undefined) return true;
	return found !== undefined && sameId(found.solutionId, solutionId);
}
