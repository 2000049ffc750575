import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	APP_ID_WHERE,
	type Confirmation,
	consequenceOf,
	locatorValue,
} from '../../shared/descriptions/common.descriptions';

import { positiveIdOf } from '../../shared/readers/shapes';

/**
 * Reads an id parameter (number, numeric string or resource locator) as a positive integer, or
 * explains why not.
 */
export function idParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): number {
	const raw = ctx.getNodeParameter(name, itemIndex, undefined, { extractValue: true }) as unknown;
	return toId(ctx, raw, label, itemIndex);
}

/**
 * Each kind of ID, by the label its errors name: an example of its own range, and where a user
 * finds one. A label not listed gets the generic example.
 */
const ID_KINDS: Record<string, { example: number; where: string }> = {
	Solution: { example: 101, where: 'pick it from the list, or read it from Solution → Get Many' },
	'Filters → Solution': {
		example: 101,
		where: 'pick it from the list, or read it from Solution → Get Many',
	},
	Installation: {
		example: 5001,
		where: 'pick it from the list, or read it from Installation → Get Many',
	},
	'Automation (Bundle)': {
		example: 7001,
		where: 'pick it from the list, or read bundleId from Bundle Data → Get Many',
	},
	Step: { example: 9001, where: 'pick it from the list, or read it from Bundle Data → Get Many' },
	'Step ID': { example: 3944029301, where: 'read it from the steps of Run → Get Many' },
	'App ID': { example: 201, where: APP_ID_WHERE },
	'Plan ID': {
		example: 23,
		where:
			"your Albato plan's ID, as your Albato account manager or End User → Get (planId) gives it",
	},
	'Sharing ID': { example: 61, where: 'read id from Credential → Create Link' },
	'Connection ID': {
		example: 8001,
		where: 'read credentialId from Credential → Get Link Status, or id from Credential → Create',
	},
};

/**
 * An id given by the user, read by the one id rule (positiveIdOf); the error names the parameter,
 * gives an example of that kind of ID, and the item. Nothing given says it is empty.
 */
export function toId(
	ctx: IExecuteFunctions,
	raw: unknown,
	label: string,
	itemIndex: number,
): number {
	const value = locatorValue(raw);
	const id = positiveIdOf(value);
	if (id === undefined) {
		const kind = ID_KINDS[label];
		const example = `e.g. ${kind?.example ?? 5001}`;
		const empty =
			value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
		throw new NodeOperationError(
			ctx.getNode(),
			empty
				? `${label} is empty: give its ID (${example})`
				: // The ending is for AI agents too: a model that passed a name gets told what to send.
					`${label} must be a positive whole number, got ${describeValue(value)}: give its ID (${example}), not its name`,
			{
				itemIndex,
				description: kind
					? `Set "${label}" to its ID (${example}): ${kind.where}`
					: `Set "${label}" to an ID from the service, ${example}`,
			},
		);
	}
	return id;
}

export const MAX_TITLE_LENGTH = 255;

/** A required, single-line, reasonably short text. */
export function textParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const raw = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	if (typeof raw !== 'string' && typeof raw !== 'number') {
		throw new NodeOperationError(
			ctx.getNode(),
			`${label} must be text, got ${describeValue(raw)}`,
			{ itemIndex },
		);
	}
	const text = String(raw).trim();
	if (!text) {
		throw new NodeOperationError(ctx.getNode(), `${label} is empty`, {
			itemIndex,
			description: `Give "${label}" a value`,
		});
	}
	if (text.length > MAX_TITLE_LENGTH) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${label} is ${text.length} characters long; at most ${MAX_TITLE_LENGTH} are allowed`,
			{ itemIndex },
		);
	}
	return text;
}

/** Short, safe description of a bad value for an error message. */
export function describeValue(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string')
		return value.trim() === '' ? 'an empty text' : `"${value.slice(0, 40)}"`;
	return String(value);
}

/** Minutes from UTC, as Albato's accounts and end users give them: UTC−12:00 to UTC+14:00. */
export const UTC_OFFSET_MINUTES: NumberRange = { min: -720, max: 840, whole: true };

/**
 * What a number parameter may be: at least `min`, at most `max` when given, a whole number (or a
 * multiple of `multipleOf`) when asked. `unit` names what it counts ("a number of seconds").
 */
export interface NumberRange {
	min: number;
	max?: number;
	whole?: boolean;
	multipleOf?: number;
	unit?: string;
	/** Whether a numeric text ("5", from an expression) counts as its number; else it is refused. */
	fromText?: boolean;
	/** The range in the service's own words, where they say it better than the bounds. */
	words?: string;
	/** What nothing given (undefined, null, '') reads as; without it, nothing given is refused. */
	fallback?: number;
}

/** The range in words: "a whole number from -720 to 840", "a number of seconds of at least 0". */
function rangeText({ min, max, whole, multipleOf, unit, words }: NumberRange): string {
	if (words) return words;
	const kind = `a ${whole || multipleOf ? 'whole ' : ''}number${unit ? ` of ${unit}` : ''}`;
	const bounds = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
	return `${kind} ${bounds}${multipleOf ? `, a multiple of ${multipleOf}` : ''}`;
}

/**
 * The one number-range reader: a number within the range (a numeric text only with `fromText`);
 * nothing given (undefined, null, '') is the range's `fallback` when it has one. The error names the
 * parameter (`label`, as the UI shows it, e.g. "Options → Max Wait (Seconds)") and the item, before
 * any request.
 */
export function numberInRange(
	ctx: IExecuteFunctions,
	raw: unknown,
	label: string,
	range: NumberRange,
	itemIndex: number,
): number {
	const given = isNothing(raw) ? (range.fallback ?? raw) : raw;
	const value =
		range.fromText && typeof given === 'string' && given.trim() !== '' ? Number(given) : given;
	if (!fitsRange(value, range)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${label} must be ${rangeText(range)}, got ${describeValue(given)}`,
			{ itemIndex, description: `Nothing was sent. Set "${label}" to ${rangeText(range)}.` },
		);
	}
	return value;
}

const isNothing = (raw: unknown) => raw === undefined || raw === null || raw === '';

function fitsRange(value: unknown, range: NumberRange): value is number {
	if (typeof value !== 'number' || !Number.isFinite(value)) return false;
	if (value < range.min || (range.max !== undefined && value > range.max)) return false;
	if (range.whole && !Number.isInteger(value)) return false;
	return !range.multipleOf || (Number.isInteger(value) && value % range.multipleOf === 0);
}

/**
 * The one one-of reader: a value that must be one of a list (an options parameter, which an
 * expression can still set to anything). Nothing given is `fallback` when there is one.
 */
export function oneOf<T extends string>(
	ctx: IExecuteFunctions,
	raw: unknown,
	label: string,
	{ allowed, fallback }: { allowed: readonly T[]; fallback?: T },
	itemIndex: number,
): T {
	const value = isNothing(raw) ? (fallback ?? raw) : raw;
	if ((allowed as readonly unknown[]).includes(value)) return value as T;
	const quoted = allowed.map((choice) => `"${choice}"`);
	const choices =
		quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : quoted[0];
	throw new NodeOperationError(
		ctx.getNode(),
		`${label} must be ${choices}, got ${describeValue(value)}`,
		{ itemIndex, description: `Nothing was sent. Choose "${label}" from its list.` },
	);
}

/**
 * The reader of a confirmation (Outlook v2's "Delete Permanently", turned into a guard): while it
 * is off the item fails, naming the parameter, and nothing is sent.
 */
export function requireConfirmation(
	ctx: IExecuteFunctions,
	confirmation: Confirmation,
	itemIndex: number,
	notDone = 'nothing was sent',
): void {
	if (ctx.getNodeParameter(confirmation.name, itemIndex, false) === true) return;
	const sentence = consequenceOf(confirmation);
	throw new NodeOperationError(ctx.getNode(), `${confirmation.displayName} is off: ${notDone}`, {
		itemIndex,
		description: `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}. Turn on "${confirmation.displayName}" to go ahead.`,
	});
}

/** An App ID parameter (see appIdProperty), as a positive whole number. */
export function appIdParameter(ctx: IExecuteFunctions, name: string, itemIndex: number): number {
	return toId(ctx, ctx.getNodeParameter(name, itemIndex, ''), 'App ID', itemIndex);
}
