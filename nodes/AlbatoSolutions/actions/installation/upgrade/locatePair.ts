/**
 * Installation → Upgrade's first step: the customer's installation of each solution with the
 * title, located as Ensure locates it (exact title, this solution, the oldest when there are
 * several), from one read of the list. Other active copies (twins a race left running) are paused,
 * kept and reported (reportDuplicates), before anything else is written, so the switch starts from
 * one active copy at most on each side.
 */
import type { IDataObject } from 'n8n-workflow';

import { getInstallation, listInstallations } from '../../../../shared/api/installation';
import { ACTIVE, sameId, solutionIdOf, statusOf } from '../../../../shared/readers/shapes';
import { reportDuplicates } from '../../safeInstall/reportDuplicates';
import type { UpgradeItem } from './upgradeItem';

/** One solution's installation with the title: its ID and status. */
export interface Found {
	id: number;
	status: number | undefined;
}

export interface Pair {
	/** On the current solution (the upgrade's source). */
	old?: Found;
	/** On the target solution. */
	new?: Found;
	/** Twins paused (or, in Preview, that would be), one report each, and the output's list. */
	reports: Error[];
	duplicates: IDataObject[];
	/** The list as read, every title: the install's list of before (installSafely's `listed`). */
	listed: IDataObject[];
}

export async function locatePair(item: UpgradeItem): Promise<Pair> {
	const { client, itemIndex, input } = item;
	const listed = await listInstallations(client, itemIndex);
	const titled = listed.filter((installation) => installation.title === input.title);
	// The list may not say an installation's solution or status: its detail does.
	const known = await Promise.all(titled.map(async (listed) => await withDetail(item, listed)));
	const pair: Pair = { reports: [], duplicates: [], listed };
	for (const side of ['old', 'new'] as const) {
		const solutionId = side === 'old' ? item.fromSolutionId : input.solutionId;
		const ofSolution = known
			.filter((installation) => sameId(solutionIdOf(installation), solutionId))
			.sort((a, b) => Number(a.id) - Number(b.id));
		if (!ofSolution.length) continue;
		const [oldest, ...others] = ofSolution;
		pair[side] = { id: Number(oldest.id), status: statusOf(oldest) };
		const twins = others.filter((other) => statusOf(other) === ACTIVE);
		if (!twins.length) continue;
		const output: IDataObject = {};
		const keeping = { ...item, title: input.title, pause: true };
		pair.reports.push(...(await reportDuplicates(twins, pair[side].id, output, keeping)));
		pair.duplicates.push(...(output.duplicates as IDataObject[]));
	}
	return pair;
}

async function withDetail(item: UpgradeItem, listed: IDataObject): Promise<IDataObject> {
	if (solutionIdOf(listed) !== undefined && statusOf(listed) !== undefined) return listed;
	const detail = await getInstallation(item.client, String(listed.id), {
		itemIndex: item.itemIndex,
	});
	return { ...listed, ...detail };
}
