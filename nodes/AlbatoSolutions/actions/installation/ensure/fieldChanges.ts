/**
 * Installation → Ensure's field values against the installation: each desired field located in its
 * automations and steps, its current value read, its typed text converted to the field's type, and
 * compared, so only what differs is sent.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { recordsByBundle } from '../../../../shared/api/bundleData';
import { getInstallation } from '../../../../shared/api/installation';
import { bundlesOf, stepFieldsOf, stepsOf } from '../../../../shared/readers/bundles';
import { type FieldEntry, sameId } from '../../../../shared/readers/shapes';
import type { DesiredField } from './desiredFields';
import type { EnsureItem } from './desiredState';
import { fromText, HOW_TO_WRITE, kindOf, sameJson } from './valueTypes';

/** A field value resolved against the installation: where it lives and what it holds now. */
export interface FieldChange extends DesiredField {
	bundleId: number;
	stepId: number;
	from: unknown;
}

/** The installation as read with its automations, and the field values that differ. */
export interface Differences {
	installation: IDataObject;
	changes: FieldChange[];
}

/** Ensure's second step: reads the installation with its automations, and what must change. */
export async function fieldChanges(item: EnsureItem, id: number): Promise<Differences> {
	const installation = await getInstallation(item.client, id, {
		withBundles: true,
		itemIndex: item.itemIndex,
	});
	const fields = await resolveFields(item, installation);
	return { installation, changes: fields.filter((field) => !alreadySet(field)) };
}

/** Who resolves: the item, and the installation read with its bundles. */
interface Resolving {
	ctx: IExecuteFunctions;
	itemIndex: number;
	installation: IDataObject;
}

/**
 * Finds each desired field in the installation (read with its bundles) and reads the current values
 * (one bundle data read per automation concerned). A key that matches nothing fails before any
 * write.
 */
async function resolveFields(
	{ ctx, client, itemIndex, desired }: EnsureItem,
	installation: IDataObject,
): Promise<FieldChange[]> {
	const resolving = { ctx, itemIndex, installation };
	const located = desired.fields.map((field) => locate(resolving, field));
	const bundleIds = located.map((entry) => entry.bundleId);
	const records = await recordsByBundle(client, bundleIds, itemIndex);
	return located.map(({ field, bundleId, stepId }) => {
		const fields = stepFieldsOf(records.get(bundleId), stepId);
		const current = fieldNamed(fields, field.code);
		if (!current) throw noSuchField(resolving, field, fields);
		const value = typedValue(resolving, field, current);
		return { ...field, code: current.name, value, bundleId, stepId, from: current.value };
	});
}

/** Where a desired field lives: its automation (by template or ID) and step (by title or ID). */
function locate(resolving: Resolving, field: DesiredField) {
	const named = (entry: IDataObject, key: string, ...ids: string[]) =>
		ids.some((id) => sameId(entry[id], key)) || String(entry.title ?? '') === key;
	const bundle = bundlesOf(resolving.installation).find((candidate) =>
		named(candidate, field.automation, 'templateId', 'id'),
	);
	if (!bundle) throw notFound(resolving, field, `no automation "${field.automation}"`);
	const steps = stepsOf(bundle);
	const step = steps.find((candidate) => named(candidate, field.step, 'id'));
	const titles = steps.map((candidate) => `"${String(candidate.title ?? candidate.id)}"`);
	if (!step)
		throw notFound(
			resolving,
			field,
			`no step "${field.step}" in automation "${field.automation}"`,
			titles.length ? `. Its steps: ${titles.join(', ')}` : '. It has no steps',
		);
	return { field, bundleId: Number(bundle.id), stepId: Number(step.id) };
}

/**
 * A key that names nothing. A snapshot's or JSON entry is named as given (e.g. "Snapshot →
 * fieldValues → entry 3").
 */
function notFound(
	{ ctx, itemIndex, installation }: Resolving,
	field: DesiredField,
	what: string,
	more = '',
): NodeOperationError {
	const where = field.exact && field.where ? `${field.where} (item ${itemIndex})` : 'Field Values';
	return new NodeOperationError(
		ctx.getNode(),
		`${where}: ${what} in installation ${String(installation.id)}${more}`,
		{
			itemIndex,
			description:
				'Nothing was changed. Check the key: automation (template title or ID), step (title or ID), field code.',
		},
	);
}

/** No field of the step has this code (or this label, exactly once): the step's fields are listed. */
function noSuchField(resolving: Resolving, field: DesiredField, fields: FieldEntry[]) {
	const listed = fields.length
		? `. Its fields: ${fields.map((entry) => `${entry.name} (${entry.label})`).join(', ')}`
		: '. It has no fields';
	const twice = fields.filter((entry) => entry.label === field.code).length > 1;
	const what = twice ? `more than one field labelled "${field.code}"` : `no field "${field.code}"`;
	return notFound(resolving, field, `${what} in step "${field.step}"`, listed);
}

/** The value to send: typed text (Field Values) read as the field's current type; JSON as it is. */
function typedValue({ ctx, itemIndex }: Resolving, field: DesiredField, current: FieldEntry) {
	if (field.exact || typeof field.value !== 'string') return field.value;
	const converted = fromText(field.value, current.value);
	if ('value' in converted) return converted.value;
	const kind = kindOf(current.value);
	throw new NodeOperationError(
		ctx.getNode(),
		`${field.where ?? 'Field Values'} (item ${itemIndex}): "${current.label}" (${current.name}) ${converted.problem}`,
		{
			itemIndex,
			description: `Nothing was changed. ${HOW_TO_WRITE[kind]} To send a value of another type, give it as JSON (Field Values → JSON) or with an expression, e.g. {{ 30 }}.`,
		},
	);
}

/**
 * The field a key names: its code, or else its label when exactly one field has that label (a label
 * typed where the code is expected). Undefined when nothing, or more than one label, matches.
 */
function fieldNamed(fields: FieldEntry[], key: string): FieldEntry | undefined {
	const byCode = fields.find((entry) => entry.name === key);
	if (byCode) return byCode;
	const byLabel = fields.filter((entry) => entry.label === key);
	return byLabel.length === 1 ? byLabel[0] : undefined;
}

/** The same value, whatever its type on either side ("40" and 40; a list reference as text). */
function sameValue(a: unknown, b: unknown): boolean {
	const text = (value: unknown) =>
		value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value ?? '');
	return text(a) === text(b);
}

/**
 * Whether a desired value is already there: exactly (JSON) or, for Field Values, as text too ("40"
 * = 40).
 */
function alreadySet(field: FieldChange): boolean {
	return field.exact ? sameJson(field.from, field.value) : sameValue(field.from, field.value);
}
