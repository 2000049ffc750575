import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { labelOfMapperField } from '../../../shared/readers/fieldLabel';
import { isObject } from '../../../shared/readers/shapes';
import { mappedOrJson } from '../objectParameters';

/** The field values of Bundle Data → Update: a non-empty object keyed by field codes. */
export function fieldValuesParameter(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const data = mappedOrJson(
		ctx,
		itemIndex,
		{ mode: 'fieldValuesMode', mapper: 'fieldMapper', json: 'fieldValues' },
		'Field Values',
		{ allowEmpty: false },
	);
	const blank = Object.keys(data).find((code) => code.trim() === '');
	if (blank !== undefined) {
		throw new NodeOperationError(ctx.getNode(), 'Field Values has an empty field code', {
			itemIndex,
		});
	}
	return data;
}

/**
 * The labels the fields were picked by, from the mapper's saved schema (code → label). JSON mode
 * gives codes only: no labels.
 */
export function fieldLabels(ctx: IExecuteFunctions, itemIndex: number): Record<string, string> {
	if (ctx.getNodeParameter('fieldValuesMode', itemIndex, 'json') !== 'mapper') return {};
	const schema = ctx.getNodeParameter('fieldMapper.schema', itemIndex, []) as unknown;
	if (!Array.isArray(schema)) return {};
	return Object.fromEntries(
		schema
			.filter(isObject)
			.filter((field) => typeof field.id === 'string' && typeof field.displayName === 'string')
			.map((field) => [field.id as string, labelOfMapperField(field.displayName as string)]),
	);
}
