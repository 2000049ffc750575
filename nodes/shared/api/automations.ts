/**
 * The end user's automations (bundles) with their installation's names: what Run → Get New and the
 * trigger's run events put beside each run. Runs name only their bundle id.
 */
import type { IDataObject } from 'n8n-workflow';

import { bundlesOf, stepsOf } from '../readers/bundles';
import { sameId, solutionIdOf } from '../readers/shapes';
import type { AlbatoClient } from '../transport/client';
import { mapLimited } from '../transport/mapLimited';
import { READS_AT_ONCE } from '../transport/concurrency';
import { getInstallation, listInstallations } from './installation';

/** Where an automation belongs. */
export interface Automation {
	installationId: unknown;
	installationTitle: unknown;
	bundleTitle: unknown;
	solutionId: string | number | undefined;
	/** Its steps' titles by step id, to name a run's failed step. */
	stepTitles: Map<string, string>;
}

/** Automations by bundle id. */
export type Automations = Map<string, Automation>;

/**
 * Adds the automations of an installation read with its bundles. `listed` is the installation as
 * its list gave it (its id, and the title and solution the detail may lack).
 */
function addAutomations(into: Automations, installation: IDataObject, listed: IDataObject): void {
	for (const bundle of bundlesOf(installation))
		into.set(String(bundle.id), {
			installationId: listed.id,
			installationTitle: installation.title ?? listed.title ?? null,
			bundleTitle: bundle.title ?? null,
			solutionId: solutionIdOf(listed) ?? solutionIdOf(installation),
			stepTitles: new Map(
				stepsOf(bundle).map((step) => [String(step.id), String(step.title ?? '')]),
			),
		});
}

/**
 * Every automation of the end user, named: the installation list, then each installation with its
 * automations (READS_AT_ONCE at once). Any failure fails the whole: the caller weighs it.
 */
export async function automationNames(
	client: AlbatoClient,
	itemIndex?: number,
): Promise<Automations> {
	const automations: Automations = new Map();
	const installations = await listInstallations(client, itemIndex);
	await mapLimited(installations, READS_AT_ONCE, async (item) => {
		const installation = await getInstallation(client, String(item.id), {
			withBundles: true,
			withStatus: false,
			itemIndex,
		});
		addAutomations(automations, installation, item);
		return true;
	});
	return automations;
}

/**
 * The runs of every automation of one installation, each automation's list read by `listRuns` in
 * turn, and those automations, named.
 */
export async function runsOfInstallation(
	client: AlbatoClient,
	installationId: number,
	listRuns: (bundleId: string) => Promise<IDataObject[]>,
	itemIndex?: number,
): Promise<{ runs: IDataObject[]; automations: Automations }> {
	const installation = await getInstallation(client, installationId, {
		withBundles: true,
		withStatus: false,
		itemIndex,
	});
	const automations: Automations = new Map();
	addAutomations(automations, installation, { id: installationId });
	const runs: IDataObject[] = [];
	for (const bundle of bundlesOf(installation)) runs.push(...(await listRuns(String(bundle.id))));
	return { runs, automations };
}

/** The automation of a run's bundle id (ids compared as the service may send them: 5 or "5"). */
export const automationOf = (automations: Automations, bundleId: unknown) =>
	[...automations.entries()].find(([id]) => sameId(id, bundleId))?.[1];
