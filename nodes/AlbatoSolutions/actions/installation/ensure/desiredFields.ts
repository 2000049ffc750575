/**
 * Installation → Ensure's Field Values: keyed so they can be written before the installation exists
 * (automation = template title or ID, then step title or ID, then field code), given in the editor
 * or as JSON with their types.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../../../shared/readers/shapes';
import { unsafeKeyPath } from '../../objectParameters';
import { describeValue } from '../../params';

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
						loadOptionsMethod: 'getEnsureTemplates',
						loadOptionsDependsOn: ['solutionId.value'],
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
						loadOptionsDependsOn: ['&automation', 'solutionId.value', 'title'],
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
						loadOptionsDependsOn: ['&automation', '&step', 'solutionId.value', 'title'],
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
 * Field Values: the collection above (the default), or the same entries as JSON with
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
