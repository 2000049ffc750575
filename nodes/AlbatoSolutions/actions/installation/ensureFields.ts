/**
 * Installation → Ensure's Field Values: keyed so they can be written before the installation exists
 * (automation = template title or ID, then step title or ID, then field code), resolved against the
 * installation's automations, and compared with what the service holds, so only what differs is
 * sent.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bundleData } from '../../../shared/api/bundleData';
import { bundlesOf, stepsOf } from '../../../shared/readers/bundles';
import { type FieldEntry, fieldsOf, isObject, sameId } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import { describeValue } from '../params';
import { unsafeKeyPath } from '../objectParameters';
import { fromText, HOW_TO_WRITE, kindOf, sameJson } from './ensureValues';

const fieldValuesProperty: INodeProperties = {
	displayName: 'Field Values',
	name: 'desiredFields',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Field Value',
	default: {},
	description:
		'Field values the installation must have. Keyed so they work before it exists: automation (template), step, field code. Only values that differ are changed.',
	options: [
		{
			displayName: 'Field',
			name: 'field',
			values: [
				{
					displayName: 'Automation (Template) Name or ID',
					name: 'automation',
					type: 'options',
					typeOptions: {
						loadOptionsMethod: 'getTemplates',
						loadOptionsDependsOn: ['solutionId.value', 'endUserId'],
					},
					default: '',
					description:
						'The template the automation was installed from, by title or ID. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'Step Name or ID',
					name: 'step',
					type: 'options',
					typeOptions: {
						loadOptionsMethod: 'getEnsureSteps',
						loadOptionsDependsOn: ['&automation', 'solutionId.value', 'title', 'endUserId'],
					},
					default: '',
					description:
						'The step, by title (or ID), read from the end user\'s installation with this title, else from the template or another installation of the solution (each option says which). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'Field Name or ID',
					name: 'code',
					type: 'options',
					typeOptions: {
						loadOptionsMethod: 'getEnsureFields',
						loadOptionsDependsOn: [
							'&automation',
							'&step',
							'solutionId.value',
							'title',
							'endUserId',
						],
					},
					default: '',
					description:
						'The field, by its code (its label is taken too when only one field of the step has it). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					description:
						"The value it must have. Typed text is read as the field's current type: 30 for a number field, true or false for a boolean, JSON for a list or an object; anything else is refused before a change. An expression keeps its own type, e.g. {{ null }}.",
				},
			],
		},
	],
};

/**
 * The JSON form of field values, shared by Field Values (JSON) and the snapshot's `fieldValues`.
 */
const FIELD_VALUES_JSON_EXAMPLE =
	'[{"automation": 1011, "step": "Send welcome email", "code": "subject", "value": "Hello"}, {"automation": 1011, "step": "Send welcome email", "code": "cf__4c2d9e8f0a1b4c3d", "value": 30}]';

/**
 * Field Values: the collection above (the default, as before), or the same entries as JSON with
 * their types.
 */
export const fieldValuesProperties: INodeProperties[] = [
	{
		displayName: 'Field Values Input',
		name: 'desiredFieldsMode',
		type: 'options',
		default: 'fields',
		description: 'How to give the field values',
		options: [
			{
				name: 'Define Below',
				value: 'fields',
				description: "Pick automation, step and field; typed text is read as the field's type",
			},
			{
				name: 'JSON',
				value: 'json',
				description:
					'A list of {automation, step, code, value}: each value keeps its JSON type (numbers, booleans, null, lists, objects)',
			},
		],
	},
	{ ...fieldValuesProperty, displayOptions: { show: { desiredFieldsMode: ['fields'] } } },
	{
		displayName: 'Field Values (JSON)',
		name: 'desiredFieldsJson',
		type: 'json',
		default: '[]',
		displayOptions: { show: { desiredFieldsMode: ['json'] } },
		description: `Field values the installation must have, each value with its JSON type, e.g. ${FIELD_VALUES_JSON_EXAMPLE}. Automation: template title or ID; step: title or ID; code: the field code (or its label, when only one field has it). Only values that differ are changed.`,
	},
];

export interface DesiredField {
	automation: string;
	step: string;
	code: string;
	value: unknown;
	/**
	 * Given as JSON (Field Values (JSON), a snapshot): the value keeps its type, compared exactly.
	 */
	exact?: boolean;
	/** Where it was given, for messages: e.g. `Field Values → entry 2`. */
	where?: string;
}

/** A field value resolved against the installation: where it lives and what it holds now. */
export interface FieldChange extends DesiredField {
	bundleId: number;
	stepId: number;
	from: unknown;
}

export function readDesiredFields(ctx: IExecuteFunctions, itemIndex: number): DesiredField[] {
	if (ctx.getNodeParameter('desiredFieldsMode', itemIndex, 'fields') === 'json') {
		const raw = ctx.getNodeParameter('desiredFieldsJson', itemIndex, '[]') as unknown;
		return fieldValuesFromJson(ctx, raw, 'Field Values (JSON)', itemIndex);
	}
	const raw = ctx.getNodeParameter('desiredFields.field', itemIndex, []) as IDataObject[];
	return raw.map((entry, n) => {
		const key = (name: 'automation' | 'step' | 'code', label: string) => {
			const value = String(entry[name] ?? '').trim();
			if (value === '')
				throw new NodeOperationError(
					ctx.getNode(),
					`Field Values → entry ${n + 1}: ${label} is empty`,
					{
						itemIndex,
						description: 'Each field value needs its automation (template), step and field code.',
					},
				);
			return value;
		};
		return {
			automation: key('automation', 'Automation (Template)'),
			step: key('step', 'Step'),
			code: key('code', 'Field Code'),
			// Left empty in the editor: ''. An expression's null stays null (no value).
			value: entry.value === undefined ? '' : entry.value,
			where: `Field Values → entry ${n + 1}`,
		};
	});
}

const ENTRY_KEYS = ['automation', 'step', 'code', 'label', 'value'];

/**
 * Field values as JSON: a list of `{ automation, step, code, value, label? }` (a JSON text or the
 * list itself). Every value keeps its JSON type (numbers, booleans, null, lists, objects). Anything
 * else (an unknown key, a key of the wrong type, a missing value) is refused, naming the parameter,
 * the entry and the item, before any request.
 */
export function fieldValuesFromJson(
	ctx: IExecuteFunctions,
	raw: unknown,
	label: string,
	itemIndex: number,
): DesiredField[] {
	const fail = (detail: string) =>
		new NodeOperationError(ctx.getNode(), `${label} (item ${itemIndex}): ${detail}`, {
			itemIndex,
			description: `Nothing was sent for this item. Give "${label}" as a list of {"automation", "step", "code", "value"} entries (and an optional "label"), e.g. ${FIELD_VALUES_JSON_EXAMPLE}. Each value keeps its JSON type.`,
		});
	let list: unknown = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') list = [];
		else {
			try {
				list = JSON.parse(raw);
			} catch (error) {
				throw fail(`not valid JSON: ${(error as Error).message}`);
			}
		}
	}
	if (!Array.isArray(list)) throw fail(`must be a list, got ${describeValue(list)}`);
	const unsafe = unsafeKeyPath(list);
	if (unsafe) throw fail(`has the key "${unsafe}", which cannot be sent`);
	return list.map((entry: unknown, n) => {
		const at = `entry ${n + 1}`;
		if (!isObject(entry)) throw fail(`${at} must be an object, got ${describeValue(entry)}`);
		const unknown = Object.keys(entry).filter((key) => !ENTRY_KEYS.includes(key));
		if (unknown.length)
			throw fail(
				`${at} has the unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `"${key}"`).join(', ')}; an entry holds only ${ENTRY_KEYS.join(', ')}`,
			);
		const key = (name: 'automation' | 'step' | 'code') => {
			const value = entry[name];
			const ok =
				(typeof value === 'string' && value.trim() !== '') ||
				(name !== 'code' && typeof value === 'number' && Number.isSafeInteger(value) && value > 0);
			if (!ok)
				throw fail(
					`${at}: "${name}" must be ${name === 'code' ? 'a field code (text)' : 'a title (text) or an ID (a whole number)'}, got ${describeValue(value)}`,
				);
			return String(value).trim();
		};
		const result: DesiredField = {
			automation: key('automation'),
			step: key('step'),
			code: key('code'),
			value: undefined,
			exact: true,
			where: `${label} → ${at}`,
		};
		if (entry.label !== undefined && typeof entry.label !== 'string')
			throw fail(`${at}: "label" must be text, got ${describeValue(entry.label)}`);
		if (!Object.prototype.hasOwnProperty.call(entry, 'value') || entry.value === undefined)
			throw fail(`${at} has no "value" (write null for no value)`);
		result.value = entry.value;
		return result;
	});
}

/** The same value, whatever its type on either side ("40" and 40; a list reference as text). */
function sameValue(a: unknown, b: unknown): boolean {
	const text = (value: unknown) =>
		value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value ?? '');
	return text(a) === text(b);
}

/**
 * Finds each desired field in the installation (read with its bundles) and reads the current values
 * (one bundle data read per automation concerned). A key that matches nothing fails before any
 * write.
 */
export async function resolveFields(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	installation: IDataObject,
	desired: DesiredField[],
	itemIndex: number,
): Promise<FieldChange[]> {
	const bundles = bundlesOf(installation);
	const named = (entry: IDataObject, key: string, ...ids: string[]) =>
		ids.some((id) => sameId(entry[id], key)) || String(entry.title ?? '') === key;
	// A snapshot's or JSON entry is named as given (e.g. "Snapshot → fieldValues → entry 3").
	const notFound = (what: string, more = '', field?: DesiredField) =>
		new NodeOperationError(
			ctx.getNode(),
			`${field?.exact && field.where ? `${field.where} (item ${itemIndex})` : 'Field Values'}: ${what} in installation ${String(installation.id)}${more}`,
			{
				itemIndex,
				description:
					'Nothing was changed. Check the key: automation (template title or ID), step (title or ID), field code.',
			},
		);
	const located = desired.map((field) => {
		const bundle = bundles.find((candidate) =>
			named(candidate, field.automation, 'templateId', 'id'),
		);
		if (!bundle) throw notFound(`no automation "${field.automation}"`, '', field);
		const step = stepsOf(bundle).find((candidate) => named(candidate, field.step, 'id'));
		if (!step)
			throw notFound(`no step "${field.step}" in automation "${field.automation}"`, '', field);
		return { field, bundleId: Number(bundle.id), stepId: Number(step.id) };
	});
	const records = new Map<number, IDataObject[]>();
	for (const bundleId of new Set(located.map((entry) => entry.bundleId)))
		records.set(bundleId, await bundleData(client, bundleId, itemIndex));
	return located.map(({ field, bundleId, stepId }) => {
		const record = records.get(bundleId)!.find((candidate) => sameId(candidate.id, stepId));
		const fields = fieldsOf(record?.data ?? record?.fields);
		const current = fieldNamed(fields, field.code);
		if (!current) {
			const listed = fields.length
				? `. Its fields: ${fields.map((entry) => `${entry.name} (${entry.label})`).join(', ')}`
				: '. It has no fields';
			const twice = fields.filter((entry) => entry.label === field.code).length > 1;
			throw notFound(
				`${twice ? `more than one field labelled "${field.code}"` : `no field "${field.code}"`} in step "${field.step}"`,
				listed,
				field,
			);
		}
		let value = field.value;
		if (!field.exact && typeof value === 'string') {
			const converted = fromText(value, current.value);
			if ('problem' in converted) {
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
			value = converted.value;
		}
		return { ...field, code: current.name, value, bundleId, stepId, from: current.value };
	});
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

/**
 * Whether a desired value is already there: exactly (JSON) or, for Field Values, as text too ("40"
 * = 40).
 */
export function alreadySet(field: FieldChange): boolean {
	return field.exact ? sameJson(field.from, field.value) : sameValue(field.from, field.value);
}
