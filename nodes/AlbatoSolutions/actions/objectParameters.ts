import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../shared/readers/shapes';
import { describeValue } from './params';

/*
 * The parameter kit's object readers (params.ts has the rest): a JSON object given as text or as
 * an object, and a "Map Each Field / JSON" pair. Keys that would change a JavaScript object
 * instead of being data are refused.
 */

/** A JSON object parameter: accepts an object (from an expression) or a JSON text. */
export function objectParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	{ allowEmpty = true }: { allowEmpty?: boolean } = {},
): IDataObject {
	return toObject(ctx, ctx.getNodeParameter(name, itemIndex, '') as unknown, label, itemIndex, {
		allowEmpty,
	});
}

/** An object given as an object (from an expression) or as JSON text. */
export function toObject(
	ctx: IExecuteFunctions,
	raw: unknown,
	label: string,
	itemIndex: number,
	{ allowEmpty = true }: { allowEmpty?: boolean } = {},
): IDataObject {
	let value: unknown = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') value = {};
		else {
			try {
				value = JSON.parse(raw);
			} catch (error) {
				throw new NodeOperationError(
					ctx.getNode(),
					`${label} is not valid JSON: ${(error as Error).message}`,
					{
						itemIndex,
						description: `Write "${label}" as a JSON object, e.g. {"key": "value"}`,
					},
				);
			}
		}
	}
	if (!isObject(value)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${label} must be a JSON object, got ${describeValue(value)}`,
			{
				itemIndex,
				description: `Write "${label}" as a JSON object, e.g. {"key": "value"}`,
			},
		);
	}
	const unsafe = unsafeKeyPath(value);
	if (unsafe) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${label} has the key "${unsafe}", which cannot be sent`,
			{
				itemIndex,
				description:
					'The keys __proto__, constructor and prototype change JavaScript objects instead of being plain data, so they are refused and nothing is sent. Rename or remove that entry.',
			},
		);
	}
	if (!allowEmpty && Object.keys(value).length === 0) {
		throw new NodeOperationError(ctx.getNode(), `${label} is empty`, {
			itemIndex,
			description: `Give at least one entry in "${label}"`,
		});
	}
	return value;
}

/** Keys that cannot travel as plain data in a JavaScript object. */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The path of the first unsafe key in a user's map, at any depth (e.g. `settings.__proto__`);
 * undefined when none.
 */
export function unsafeKeyPath(value: unknown, path = ''): string | undefined {
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) {
			const found = unsafeKeyPath(value[i], `${path}[${i}]`);
			if (found) return found;
		}
		return undefined;
	}
	if (!isObject(value)) return undefined;
	for (const key of Object.keys(value)) {
		const here = path ? `${path}.${key}` : key;
		if (UNSAFE_KEYS.has(key)) return here;
		const found = unsafeKeyPath(value[key], here);
		if (found) return found;
	}
	return undefined;
}

/**
 * The values of a parameter that is either a resource mapper ("Map Each Field") or JSON, chosen by
 * `<modeName>`. Unset mapper fields (null, empty) are left out: they mean "not given".
 */
export function mappedOrJson(
	ctx: IExecuteFunctions,
	itemIndex: number,
	names: { mode: string; mapper: string; json: string },
	label: string,
	options: { allowEmpty?: boolean } = {},
): IDataObject {
	if (ctx.getNodeParameter(names.mode, itemIndex, 'json') !== 'mapper') {
		return objectParameter(ctx, names.json, label, itemIndex, options);
	}
	const raw = ctx.getNodeParameter(`${names.mapper}.value`, itemIndex, {}) as unknown;
	const given = Object.fromEntries(
		Object.entries(isObject(raw) ? raw : {}).filter(
			([, value]) => value !== null && value !== undefined && value !== '',
		),
	);
	return toObject(ctx, given, label, itemIndex, options);
}
