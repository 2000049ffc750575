/**
 * Installation → Upgrade's field values: every value of one installation (the source) given its
 * home in the other (the target). An automation is matched by its title, else by its place; a step
 * by its title, else by its place in the automation; a field by its code, or by the code Renamed
 * Fields gives it. A value with no home is listed with the reason, never dropped silently; a
 * target field no value lands in keeps its default and is listed too. Pure: no request.
 */
import type { IDataObject } from 'n8n-workflow';

import { bundlesOf, stepFieldsOf, stepsOf } from '../../../../shared/readers/bundles';
import type { FieldEntry } from '../../../../shared/readers/shapes';
import type { FieldChange } from '../ensure/fieldChanges';
import { sameJson } from '../ensure/valueTypes';

/** An installation read with its automations and steps, and each automation's step records. */
export interface Side {
	id: number;
	installation: IDataObject;
	records: Map<number, IDataObject[]>;
}

/** Where a field lives, as a person reads it: automation title, step title, field code. */
export interface Place {
	automation: string;
	step: string;
	code: string;
}

export interface Mapped extends Place {
	to: Place;
	value: unknown;
	/** Whether the target holds another value now (only these are written). */
	differs: boolean;
}

export interface Unmapped extends Place {
	label: string;
	value: unknown;
	reason: string;
}

export interface ValueMap {
	mapped: Mapped[];
	unmapped: Unmapped[];
	/** Target fields no source value lands in: they keep the value they have (a new field's default). */
	kept: Array<Place & { value: unknown }>;
	/** The writes: the mapped values that differ, in Ensure's form (one PUT per step). */
	changes: FieldChange[];
}

interface StepAt {
	bundleId: number;
	stepId: number;
	automation: string;
	step: string;
	fields: FieldEntry[];
}

const titleOf = (entry: IDataObject) => String(entry.title ?? entry.id ?? '').trim();

/** Each step of an installation with its automation, in order, and its fields. */
function stepsAt(side: Side): StepAt[][] {
	return bundlesOf(side.installation).map((bundle) =>
		stepsOf(bundle).map((step) => ({
			bundleId: Number(bundle.id),
			stepId: Number(step.id),
			automation: titleOf(bundle),
			step: titleOf(step),
			fields: stepFieldsOf(side.records.get(Number(bundle.id)), step.id),
		})),
	);
}

/**
 * The entry with this title, else the one at this place, unless its title is one of the source's
 * (`titles`): that one is another entry's home.
 */
function matchOf<T>(
	list: T[],
	at: { place: number; title: string; titles: string[] },
	titled: (entry: T) => string,
) {
	const byTitle = list.find((entry) => titled(entry) === at.title);
	if (byTitle) return byTitle;
	const byPlace = list[at.place];
	return byPlace && !at.titles.includes(titled(byPlace)) ? byPlace : undefined;
}

/** Where a source step's values go: its automation's home and its own (undefined: none). */
interface Destination {
	automation: StepAt[] | undefined;
	step: StepAt | undefined;
}

/** Why a value has no home, as the output says it. */
function noHome(from: StepAt, homes: Destination, code: string): string {
	if (!homes.automation)
		return `the target has no automation "${from.automation}" (nor one at its place)`;
	if (!homes.step)
		return `automation "${homes.automation[0]?.automation ?? ''}" has no step "${from.step}" (nor one at its place)`;
	return `step "${homes.step.step}" has no field "${code}"`;
}

/**
 * Each value of one source step: mapped (and a change when it differs) or unmapped; `taken` gets
 * each target field a value lands in.
 */
function mapStep(
	result: ValueMap,
	from: StepAt,
	homes: Destination,
	renames: Record<string, string>,
	taken: Set<string>,
) {
	const to = homes.step;
	for (const field of from.fields) {
		const place = { automation: from.automation, step: from.step, code: field.name };
		const code = renames[field.name] ?? field.name;
		const there = to?.fields.find((candidate) => candidate.name === code);
		if (!to || !there) {
			const reason = noHome(from, homes, code);
			result.unmapped.push({ ...place, label: field.label, value: field.value, reason });
			continue;
		}
		taken.add(`${to.stepId}\u0000${code}`);
		const differs = !sameJson(there.value, field.value);
		const target = { automation: to.automation, step: to.step, code };
		result.mapped.push({ ...place, to: target, value: field.value, differs });
		const { bundleId, stepId } = to;
		if (differs)
			result.changes.push({
				...target,
				value: field.value,
				exact: true,
				bundleId,
				stepId,
				from: there.value,
			});
	}
}

/** Maps every source value onto the target (renames: source code → target code). */
export function mapValues(source: Side, target: Side, renames: Record<string, string>): ValueMap {
	const targetSteps = stepsAt(target);
	const result: ValueMap = { mapped: [], unmapped: [], kept: [], changes: [] };
	const taken = new Set<string>();
	const sourceSteps = stepsAt(source);
	const automations = sourceSteps.map((steps) => steps[0]?.automation ?? '');
	sourceSteps.forEach((steps, a) => {
		const at = { place: a, title: automations[a], titles: automations };
		const automation = steps.length
			? matchOf(targetSteps, at, (candidate) => candidate[0]?.automation ?? '')
			: undefined;
		const titles = steps.map((step) => step.step);
		steps.forEach((step, s) => {
			const stepAt = { place: s, title: step.step, titles };
			const home = automation && matchOf(automation, stepAt, (candidate) => candidate.step);
			mapStep(result, step, { automation, step: home }, renames, taken);
		});
	});
	for (const step of targetSteps.flat())
		for (const field of step.fields)
			if (!taken.has(`${step.stepId}\u0000${field.name}`))
				result.kept.push({
					automation: step.automation,
					step: step.step,
					code: field.name,
					value: field.value,
				});
	return result;
}
