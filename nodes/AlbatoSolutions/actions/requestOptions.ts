import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_ITEMS_IN_FLIGHT } from '../../shared/descriptions/requestOptions.descriptions';
import { numberInRange } from './params';
import { DEFAULT_TRANSPORT_OPTIONS, type TransportOptions } from '../../shared/transport/settings';

/**
 * Request Options, read once for the whole execution (from the first item: one client serves the
 * run).
 */
export function readRequestOptions(ctx: IExecuteFunctions): TransportOptions {
	const raw = ctx.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	// Messages name each option as the UI shows it.
	const number = (name: string, label: string, fallback: number, min: number, max?: number) =>
		numberInRange(ctx, raw[name], `Request Options → ${label}`, { min, max, fallback }, 0);
	if (raw.preview !== undefined && typeof raw.preview !== 'boolean') {
		throw new NodeOperationError(
			ctx.getNode(),
			`Request Options → Preview must be true or false, got ${JSON.stringify(raw.preview)}`,
			{ itemIndex: 0 },
		);
	}
	return {
		concurrency: Math.floor(
			number(
				'concurrency',
				'Items in Flight',
				DEFAULT_TRANSPORT_OPTIONS.concurrency,
				0,
				MAX_ITEMS_IN_FLIGHT,
			),
		),
		maxRetries: Math.floor(
			number('maxRetries', 'Max Retries', DEFAULT_TRANSPORT_OPTIONS.maxRetries, 0, 10),
		),
		retryBudget:
			number(
				'retryBudget',
				'Retry Time Budget (Seconds)',
				DEFAULT_TRANSPORT_OPTIONS.retryBudget / 1000,
				0,
			) * 1000,
		timeout:
			number('timeout', 'Timeout (Seconds)', DEFAULT_TRANSPORT_OPTIONS.timeout / 1000, 0.1) * 1000,
		preview: raw.preview === true,
	};
}
