import type { IDataObject } from 'n8n-workflow';

import type { SettingStep } from './settingSteps';

export interface Resolution {
	/** Every step reached, mapped to the service's own value for the choice made. */
	credentialData: IDataObject;
	/** Steps that still need a choice. */
	missing: SettingStep[];
	/** Choices whose value the step does not offer. */
	invalid: Array<{ step: SettingStep; given: unknown }>;
	/** Steps chosen automatically because they offer exactly one value. */
	autoSelected: string[];
	/** Choices given for steps the solution does not have (for the other choices made). */
	unknown: string[];
}

/** Walks the tree as far as the choices reach; pure, so it is unit-tested on its own. */
export function resolveChoices(
	steps: SettingStep[],
	choices: IDataObject,
	{ autoSelectSingle = false }: { autoSelectSingle?: boolean } = {},
): Resolution {
	const result: Resolution = {
		credentialData: {},
		missing: [],
		invalid: [],
		autoSelected: [],
		unknown: [],
	};
	const visit = (level: SettingStep[]) => {
		for (const step of level) {
			const given = choices[step.id];
			if (given === undefined || given === null || given === '') {
				if (autoSelectSingle && step.values.length === 1) {
					result.credentialData[step.id] = step.values[0].value;
					result.autoSelected.push(step.id);
				} else {
					result.missing.push(step);
				}
				continue;
			}
			const offered = step.values.find((option) => String(option.value) === String(given));
			if (!offered) {
				result.invalid.push({ step, given });
				continue;
			}
			result.credentialData[step.id] = offered.value;
			visit(step.nested);
		}
	};
	visit(steps);
	const reached = new Set([
		...Object.keys(result.credentialData),
		...result.missing.map((s) => s.id),
		...result.invalid.map((i) => i.step.id),
	]);
	result.unknown = Object.keys(choices).filter((key) => !reached.has(key));
	return result;
}

/** `credentialData[<step>]=<value>` query parameters, as the service reads them. */
export function choicesQuery(choices: IDataObject): Record<string, string> {
	const query: Record<string, string> = {};
	for (const [step, value] of Object.entries(choices)) {
		if (value !== undefined && value !== null && value !== '')
			query[`credentialData[${step}]`] = String(value);
	}
	return query;
}

function describeOffered(step: SettingStep): string {
	return step.values
		.map((option) =>
			option.title === String(option.value)
				? `"${option.value}"`
				: `"${option.value}" (${option.title})`,
		)
		.join(', ');
}

/**
 * What is incomplete or wrong in a set of choices: every step with what it offers, and every
 * choice for a step the solution does not have. Empty when the choices are complete.
 */
export function resolutionProblems(resolution: Resolution): string[] {
	return [
		...resolution.invalid.map(
			({ step, given }) =>
				`step "${step.id}" (${step.title}) does not offer "${String(given)}"; it offers ${describeOffered(step)}`,
		),
		...resolution.missing.map(
			(step) =>
				`step "${step.id}" (${step.title}) has no value; it offers ${describeOffered(step)}`,
		),
		...resolution.unknown.map(
			(id) => `"${id}" is not a step of this solution for the values chosen`,
		),
	];
}

/**
 * The Connection Settings mapper's marks, written by the picker and read back at execution (from
 * the schema n8n saves with the mapper): a choice that opens further steps is named
 * "HubSpot (opens Pipeline)"; a connection the end user already has (offered under its id, e.g. one
 * made by link) "Alpha CRM (connection 8001)".
 */
export const choiceName = (title: string, value: unknown, opens: string[] | undefined) => {
	const connection = /^\d+$/.test(String(value).trim()) ? ` (connection ${String(value)})` : '';
	return `${title}${connection}${opens?.length ? ` (opens ${opens.join(', ')})` : ''}`;
};

/** The steps a marked choice opens (see choiceName); undefined when it is not marked. */
export function opensOf(name: unknown): string[] | undefined {
	const found = /\(opens (.+)\)$/.exec(String(name ?? ''));
	return found ? found[1].split(', ') : undefined;
}

/** How deep a mapper field is nested: its "↳ " prefixes. */
export const depthOf = (displayName: unknown) =>
	(/^(?:↳ )*/.exec(String(displayName ?? ''))?.[0].length ?? 0) / 2;

/** A mapper field as n8n saves it in the mapper's schema (the parts read here). */
export interface SavedField {
	id: string;
	displayName?: string;
	options?: Array<{ name: string; value: unknown }>;
}

/**
 * A choice in the saved mapper that opens further steps the mapper never showed (no refresh after
 * choosing it): the step, the choice and what it opens; undefined when every such step is there.
 */
export function unrefreshedChoice(
	schema: SavedField[],
	chosen: IDataObject,
): { step: string; choice: string; opens: string[] } | undefined {
	for (let i = 0; i < schema.length; i++) {
		const field = schema[i];
		const value = chosen[field.id];
		if (value === undefined || value === null || value === '') continue;
		const option = field.options?.find((candidate) => String(candidate.value) === String(value));
		const opens = opensOf(option?.name);
		if (!opens) continue;
		const next = schema[i + 1];
		if (!next || depthOf(next.displayName) <= depthOf(field.displayName))
			return {
				step: String(field.displayName ?? field.id).replace(/^(?:↳ )*/, ''),
				choice: String(option!.name).replace(/ \(opens .+\)$/, ''),
				opens,
			};
	}
	return undefined;
}
