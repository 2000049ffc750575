/**
 * Installation → Ensure's Field Values: keyed so they can be written before the installation exists
 * (automation = template title or ID, then step title or ID, then field code), resolved against the
 * installation's automations, and compared with what the service holds, so only what differs is sent.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bundleData } from '../../../shared/api/bundleData';
import { bundlesOf, stepsOf } from '../../../shared/api/installation';
import { fieldsOf, sameId } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';

export const fieldValuesProperty: INodeProperties = {
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
						loadOptionsDependsOn: ['solutionId.value'],
					},
					default: '',
					description:
						'The template the automation was installed from, by title or ID. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				{
					displayName: 'Step',
					name: 'step',
					type: 'string',
					default: '',
					placeholder: 'e.g. Send welcome email',
					description: "The step's title, or its ID",
				},
				{
					displayName: 'Field Code',
					name: 'code',
					type: 'string',
					default: '',
					placeholder: 'e.g. subject',
					description: 'The field code, as Bundle Data → Get Many shows it',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					description:
						'The value it must have. For a number or a boolean use an expression, e.g. {{ 40 }}.',
				},
			],
		},
	],
};

export interface DesiredField {
	automation: string;
	step: string;
	code: string;
	value: unknown;
}

/** A field value resolved against the installation: where it lives and what it holds now. */
export interface FieldChange extends DesiredField {
	bundleId: number;
	stepId: number;
	from: unknown;
}

export function readDesiredFields(ctx: IExecuteFunctions, itemIndex: number): DesiredField[] {
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
			value: entry.value ?? '',
		};
	});
}

/** The same value, whatever its type on either side ("40" and 40; a list reference as text). */
export function sameValue(a: unknown, b: unknown): boolean {
	const text = (value: unknown) =>
		value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value ?? '');
	return text(a) === text(b);
}

/**
 * Finds each desired field in the installation (read with its bundles) and reads the current values
 * (one bundle data read per automation concerned). A key that matches nothing fails before any write.
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
	const notFound = (what: string) =>
		new NodeOperationError(
			ctx.getNode(),
			`Field Values: ${what} in installation ${String(installation.id)}`,
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
		if (!bundle) throw notFound(`no automation "${field.automation}"`);
		const step = stepsOf(bundle).find((candidate) => named(candidate, field.step, 'id'));
		if (!step) throw notFound(`no step "${field.step}" in automation "${field.automation}"`);
		return { field, bundleId: Number(bundle.id), stepId: Number(step.id) };
	});
	const records = new Map<number, IDataObject[]>();
	for (const bundleId of new Set(located.map((entry) => entry.bundleId)))
		records.set(bundleId, await bundleData(client, bundleId, itemIndex));
	return located.map(({ field, bundleId, stepId }) => {
		const record = records.get(bundleId)!.find((candidate) => sameId(candidate.id, stepId));
		const current = fieldsOf(record?.data ?? record?.fields).find(
			(entry) => entry.name === field.code,
		);
		if (!current) throw notFound(`no field "${field.code}" in step "${field.step}"`);
		return { ...field, bundleId, stepId, from: current.value };
	});
}
