import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_ITEMS_IN_FLIGHT } from '../../shared/descriptions/requestOptions.descriptions';
import { countOrPercentOf } from '../../shared/readers/countOrPercent';
import { DEFAULT_TRANSPORT_OPTIONS, type TransportOptions } from '../../shared/transport/settings';
import { numberInRange } from './params';
import type { FailureLimit, RolloutSettings } from './rolloutGuard';

/** Request Options: how the client sends (transport) and which items may start (rollout). */
export interface RequestOptions {
	transport: TransportOptions;
	rollout: RolloutSettings;
}

/**
 * Request Options, read once for the whole execution (from the first item: one client serves the
 * run), every value checked before anything is sent. Only the router calls this.
 */
export function readRequestOptions(ctx: IExecuteFunctions): RequestOptions {
	const raw = ctx.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	return { transport: readTransport(ctx, raw), rollout: readRollout(ctx, raw) };
}

function readTransport(ctx: IExecuteFunctions, raw: IDataObject): TransportOptions {
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
	const { concurrency, maxRetries, retryBudget, timeout } = DEFAULT_TRANSPORT_OPTIONS;
	return {
		concurrency: Math.floor(
			number('concurrency', 'Items in Flight', concurrency, 0, MAX_ITEMS_IN_FLIGHT),
		),
		maxRetries: Math.floor(number('maxRetries', 'Max Retries', maxRetries, 0, 10)),
		retryBudget: number('retryBudget', 'Retry Time Budget (Seconds)', retryBudget / 1000, 0) * 1000,
		timeout: number('timeout', 'Timeout (Seconds)', timeout / 1000, 0.1) * 1000,
		preview: raw.preview === true,
	};
}

/** Canary Items and Stop After Failures. */
function readRollout(ctx: IExecuteFunctions, raw: IDataObject): RolloutSettings {
	const canaryItems = numberInRange(
		ctx,
		raw.canaryItems,
		'Request Options → Canary Items',
		{ min: 0, whole: true, fallback: 0, words: 'a whole number from 0 up' },
		0,
	);
	return { canaryItems, stopAfterFailures: readFailureLimit(ctx, raw.stopAfterFailures) };
}

/** "3" (failures), "2%" or "2.5 %" (of the items finished), empty: off. */
function readFailureLimit(ctx: IExecuteFunctions, value: unknown): FailureLimit | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const limit = countOrPercentOf(value, { zero: true });
	if (limit) return limit;
	throw optionError(
		ctx,
		'Stop After Failures',
		'a whole number of failures (e.g. 3) or a percentage from 0 to 100 (e.g. 2%)',
		value,
	);
}

function optionError(ctx: IExecuteFunctions, label: string, rule: string, value: unknown) {
	return new NodeOperationError(
		ctx.getNode(),
		`Request Options → ${label} must be ${rule}, got ${JSON.stringify(value)}`,
		{
			itemIndex: 0,
			description: 'Nothing was sent. Request Options apply to the whole execution.',
		},
	);
}
