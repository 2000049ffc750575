import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Applies Return All / Limit to a list the service returns whole (it has no paging). */
export function applyLimit(ctx: IExecuteFunctions, list: IDataObject[], itemIndex: number): IDataObject[] {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return list;
	const limit = ctx.getNodeParameter('limit', itemIndex, 50) as unknown;
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(ctx.getNode(), `Limit must be a whole number of at least 1, got ${String(limit)}`, {
			itemIndex,
		});
	}
	return list.slice(0, limit);
}
