/**
 * Installation → Ensure's values and their types. A value typed as text in Field Values is
 * converted to the type of the field's current value when that is unambiguous ("30" → 30 for a
 * number, "true" → true for a boolean, JSON text for a list or an object); a value given as JSON
 * (Field Values (JSON), a snapshot) or by an expression keeps its own type. Pure: no requests, no
 * n8n context.
 */
import type { IDataObject } from 'n8n-workflow';

/**
 * The current value's kind, as the service shows it (it sends no field types, so the value
 * decides).
 */
type ValueKind = 'text' | 'number' | 'boolean' | 'list' | 'object' | 'empty';

export function kindOf(value: unknown): ValueKind {
	if (value === null || value === undefined) return 'empty';
	if (typeof value === 'number') return 'number';
	if (typeof value === 'boolean') return 'boolean';
	if (Array.isArray(value)) return 'list';
	if (typeof value === 'object') return 'object';
	return 'text';
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const KIND_WORDS: Record<ValueKind, string> = {
	text: 'text',
	number: 'a number',
	boolean: 'true or false',
	list: 'a list',
	object: 'an object',
	empty: 'nothing',
};

/** How to write a value of this kind, for an error's description. */
export const HOW_TO_WRITE: Record<ValueKind, string> = {
	text: 'Type the text as it is.',
	number: 'Type the number, e.g. 30 or 2.5.',
	boolean: 'Type true or false.',
	list: 'Type the list as JSON, e.g. ["a", "b"].',
	object: 'Type the object as JSON, e.g. {"key": "value"}.',
	empty:
		'Type the value; give it as JSON (Field Values (JSON) or an expression) to choose its type.',
};

const kindWord = (kind: ValueKind) => KIND_WORDS[kind];

/** A typed text read as a value, or what is wrong with it, in words. */
type Reading = { value: unknown } | { problem: string };

/**
 * A value typed as text, converted to the kind of the field's current value: `{ value }`, or
 * `{ problem }` (what is wrong, in words) when it cannot be read as that kind. A field with no
 * current value (null) has no known type: plain words stay text, an empty text stays "no value",
 * and text that could also be JSON ("20", "true", "[1]") is refused as ambiguous.
 */
export function fromText(text: string, current: unknown): Reading {
	const kind = kindOf(current);
	switch (kind) {
		case 'text':
			return { value: text };
		case 'empty':
			return untypedFromText(text, current);
		case 'number':
			return numberFromText(text);
		case 'boolean':
			return booleanFromText(text);
		default:
			return jsonFromText(text, kind);
	}
}

/** No value now, so no known type: plain words are text; "20", "true", "[...]" could be either. */
function untypedFromText(text: string, current: unknown): Reading {
	const trimmed = text.trim();
	if (text === '') return { value: current };
	const couldBeJson =
		NUMBER.test(trimmed) || /^(true|false|null)$/i.test(trimmed) || /^[[{"]/.test(trimmed);
	if (!couldBeJson) return { value: text };
	return {
		problem: `has no value now, so its type is unknown, and ${shortText(text)} could be text or JSON`,
	};
}

function numberFromText(text: string): Reading {
	const trimmed = text.trim();
	if (NUMBER.test(trimmed) && Number.isFinite(Number(trimmed))) return { value: Number(trimmed) };
	return { problem: `holds a number, and ${shortText(text)} is not one` };
}

function booleanFromText(text: string): Reading {
	const word = text.trim().toLowerCase();
	if (word === 'true' || word === 'false') return { value: word === 'true' };
	return { problem: `holds true or false, and ${shortText(text)} is neither` };
}

function jsonFromText(text: string, kind: 'list' | 'object'): Reading {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text.trim());
	} catch {
		parsed = undefined;
	}
	if (kindOf(parsed) === kind) return { value: parsed };
	return { problem: `holds ${kindWord(kind)}, and ${shortText(text)} is not one in JSON` };
}

function shortText(text: string): string {
	if (text.trim() === '') return 'an empty text';
	return JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}…` : text);
}

const isNullish = (value: unknown) => value === null || value === undefined;

/** Deep equality of JSON values: same types, lists in order, objects whatever their key order. */
export function sameJson(a: unknown, b: unknown): boolean {
	if (a === b || (isNullish(a) && isNullish(b))) return true;
	if (Array.isArray(a) || Array.isArray(b))
		return (
			Array.isArray(a) &&
			Array.isArray(b) &&
			a.length === b.length &&
			a.every((item, i) => sameJson(item, b[i]))
		);
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	return sameObject(a as IDataObject, b as IDataObject);
}

function sameObject(x: IDataObject, y: IDataObject): boolean {
	const keys = Object.keys(x);
	return (
		keys.length === Object.keys(y).length &&
		keys.every((key) => Object.prototype.hasOwnProperty.call(y, key) && sameJson(x[key], y[key]))
	);
}
