/**
 * Installation → Upgrade's output, one item per customer (the same in Preview; the router adds
 * `preview: true`): where the customer is now, both installations with the status each is left in,
 * and every field value: mapped, with no home (unmapped), or a target field keeping its default.
 */
import type { IDataObject } from 'n8n-workflow';

import { Reported } from '../../types';
import { endUserFields } from '../ensure/report';
import type { Pair } from './locatePair';
import type { ValueMap } from './mapValues';
import type { UpgradeItem } from './upgradeItem';

export type State = 'upgraded' | 'alreadyUpgraded' | 'rolledBack' | 'alreadyRolledBack';

export interface Outcome {
	state: State;
	old: { id: number | null; status: number | null };
	new: { id: number | null; status: number | null; created: boolean };
	/** Undefined when the values were not compared (already done, or the target is not installed). */
	values?: ValueMap;
	notice?: string;
	/**
	 * The source was paused before (the customer deliberately off), so the target is left paused
	 * too: never started.
	 */
	leftPaused?: boolean;
}

/** The notice of a customer whose source installation was paused before the switch. */
const leftPausedNotice = (item: UpgradeItem, outcome: Outcome) =>
	`Installation ${item.direction === 'upgrade' ? outcome.old.id : outcome.new.id} was paused before the ${item.direction === 'upgrade' ? 'upgrade' : 'roll back'}, so installation ${(item.direction === 'upgrade' ? outcome.new.id : outcome.old.id) ?? '(the new one, once installed)'} is left paused too: it was never started. Start it with Installation → Start when the customer should run again.`;

export function upgradeReport(item: UpgradeItem, pair: Pair, outcome: Outcome) {
	const { values } = outcome;
	const unmapped = values?.unmapped ?? [];
	const notices = [
		outcome.notice,
		unmapped.length && !outcome.notice
			? `${unmapped.length} value${unmapped.length > 1 ? 's have' : ' has'} no home in the ${item.direction === 'upgrade' ? 'new' : 'old'} installation (see unmapped): ${unmapped.map((field) => `"${field.step}" → ${field.code}`).join(', ')}.`
			: undefined,
		outcome.leftPaused ? leftPausedNotice(item, outcome) : undefined,
	].filter(Boolean);
	const notice = notices.length ? notices.join(' ') : undefined;
	const output: IDataObject = {
		...endUserFields(item),
		direction: item.direction,
		state: outcome.state,
		unchanged: outcome.state.startsWith('already'),
		leftPaused: outcome.leftPaused === true,
		...(notice ? { notice } : {}),
		oldInstallation: { ...outcome.old, solutionId: item.fromSolutionId, title: item.input.title },
		newInstallation: { ...outcome.new, solutionId: item.input.solutionId, title: item.input.title },
		written: values?.changes.length ?? 0,
		mapped: values?.mapped ?? [],
		unmapped,
		kept: values?.kept ?? [],
	};
	if (pair.duplicates.length) output.duplicates = pair.duplicates;
	return pair.reports.length ? new Reported(output, pair.reports) : output;
}
