import type { IDataObject } from 'n8n-workflow';

import { idOf, isObject, listOrMap } from './shapes';

/*
 * The connection-settings steps ("credentialists") in the service's several layouts, read into one
 * tree. Pure, like every reader.
 */

/** One connection-settings step ("credentialist"), normalised from the service's variants. */
export interface SettingStep {
	id: string;
	title: string;
	values: Array<{ value: string | number | boolean; title: string }>;
	nested: SettingStep[];
}

interface RawOption {
	value: string | number | boolean;
	title: string;
	nested?: unknown;
}

const titleOf = (entry: IDataObject) => entry.title ?? entry.name ?? entry.label;

/**
 * A step's values: `[{value,title}]` (documented), `[{id,title}]`, `[{id,value}]` (id is what is
 * sent, value the label), plain strings, or an `{id: title}` map. `value` beside a title is the
 * documented key and wins over an `id`.
 */
function optionsOf(raw: unknown): RawOption[] {
	if (isObject(raw)) {
		return Object.entries(raw).map(([key, label]) => {
			if (isObject(label))
				return {
					value: key,
					title: String(titleOf(label) ?? label.value ?? key),
					nested: label.nested,
				};
			return { value: key, title: label === null || label === undefined ? key : String(label) };
		});
	}
	if (!Array.isArray(raw)) return [];
	return raw
		.filter((entry) => entry !== null && entry !== undefined)
		.map((entry: unknown) => {
			if (!isObject(entry))
				return { value: entry as string | number | boolean, title: String(entry) };
			const label = titleOf(entry);
			const keyedByValue =
				entry.value !== undefined && (label !== undefined || entry.id === undefined);
			const value = (keyedByValue ? entry.value : (entry.id ?? entry.key ?? entry.code)) as
				| string
				| number
				| boolean;
			const title = label ?? (keyedByValue ? undefined : entry.value) ?? value;
			return { value, title: String(title), nested: entry.nested };
		});
}

/**
 * Wrappers a credentialists answer may hold its steps in, besides the list keys (see holdsList).
 */
export const SETTING_STEP_KEYS = ['steps', 'credentialists'];

/**
 * The steps of a credentialists answer (bare list, wrapped, `{steps}`, or keyed by step id). Nested
 * steps may sit under the step (documented) or under each value: then those of the value chosen in
 * `choices` are taken, so both layouts give the same tree.
 */
export function settingStepsOf(data: unknown, choices: IDataObject = {}): SettingStep[] {
	return listOrMap(data, SETTING_STEP_KEYS).map((step) => {
		const id = String(idOf(step.id) ?? step.code ?? step.key ?? '');
		const options = optionsOf(step.values ?? step.options);
		const underStep = settingStepsOf(step.nested ?? [], choices);
		const chosen = options.find(
			(option) => choices[id] !== undefined && String(option.value) === String(choices[id]),
		);
		return {
			id,
			title: String(titleOf(step) ?? id),
			values: options.map(({ value, title }) => ({ value, title })),
			nested: underStep.length > 0 ? underStep : settingStepsOf(chosen?.nested ?? [], choices),
		};
	});
}

/** Only for tests: what they check or reset directly. The node never reads this. */
export const forTests = { optionsOf };
