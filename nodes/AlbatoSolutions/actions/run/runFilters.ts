import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { optionsCollection } from '../../../shared/descriptions/common.descriptions';
import { describeValue, numberInRange, oneOf, UTC_OFFSET_MINUTES } from '../params';

export const dateOffsetOption: INodeProperties = {
	displayName: 'Service Time Zone (Minutes East of UTC)',
	name: 'dateOffsetMinutes',
	type: 'number',
	typeOptions: { minValue: UTC_OFFSET_MINUTES.min, maxValue: UTC_OFFSET_MINUTES.max },
	default: 0,
	description:
		"Albato's run dates carry no time zone; they are read as UTC unless you set the account's offset here, as End User → Get gives it in timezoneOffset (e.g. -180 for UTC−3)",
};

/** The Status filter of both Run operations (readers/runs.ts tells failed from succeeded). */
export const runStatusFilter: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'options',
	default: 'any',
	options: [
		{ name: 'Any', value: 'any' },
		{
			name: 'Failed',
			value: 'failed',
			description: 'A step has an error, or the run a failure code',
		},
		{
			name: 'Succeeded',
			value: 'succeeded',
			description: 'Status 1 and no step with an error',
		},
	],
};

/** Options of both Run operations: the account's time zone. */
export const runOptionsCollection: INodeProperties = optionsCollection([dateOffsetOption]);

/** The account's offset in minutes, checked: a whole number from -720 to 840 (0 when not given). */
export function readDateOffset(ctx: IExecuteFunctions, raw: unknown, itemIndex: number): number {
	return numberInRange(
		ctx,
		raw,
		'Options → Service Time Zone (Minutes East of UTC)',
		{ ...UTC_OFFSET_MINUTES, fallback: 0 },
		itemIndex,
	);
}

/**
 * Filters → Since as epoch ms: a date with a zone as given, one without (the date picker's value)
 * in the workflow's time zone; undefined when empty.
 */
export function readSince(
	ctx: IExecuteFunctions,
	raw: unknown,
	itemIndex: number,
): number | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	let date: DateTime | undefined;
	if (DateTime.isDateTime(raw)) date = raw;
	else if (raw instanceof Date) date = DateTime.fromJSDate(raw);
	else if (typeof raw === 'string' && raw.trim() !== '')
		date = DateTime.fromISO(raw.trim(), { zone: ctx.getTimezone(), setZone: true });
	else if (typeof raw === 'number') date = DateTime.fromMillis(raw); // NaN and ±Infinity read as invalid
	if (!date?.isValid) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Filters → Since must be a date, got ${describeValue(raw)}`,
			{
				itemIndex,
				description:
					'Give a date such as 2024-05-01T11:00:00Z, or an expression such as {{ $now.minus({ hours: 1 }) }}',
			},
		);
	}
	return date.toMillis();
}

export type StatusFilter = 'any' | 'failed' | 'succeeded';

export function readStatusFilter(
	ctx: IExecuteFunctions,
	raw: unknown,
	itemIndex: number,
): StatusFilter {
	return oneOf(
		ctx,
		raw,
		'Filters → Status',
		{ allowed: ['any', 'failed', 'succeeded'], fallback: 'any' },
		itemIndex,
	);
}
