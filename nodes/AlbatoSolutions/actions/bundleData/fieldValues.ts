import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { mappedOrJson } from '../params';

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
