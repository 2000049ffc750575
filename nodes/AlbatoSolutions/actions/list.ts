import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { numberInRange } from './params';

/** Return All / Limit, read before any request: undefined means all. */
export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	if (ctx.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const limit = ctx.getNodeParameter('limit', itemIndex, 50) as unknown;
	return numberInRange(ctx, limit, 'Limit', { min: 1, whole: true }, itemIndex);
}

/** Lists are read whole (every page, see AlbatoClient.requestList), so the limit applies here. */
export function limited(list: IDataObject[], limit: number | undefined): IDataObject[] {
	return limit === undefined ? list : list.slice(0, limit);
}
