/** Success bodies: envelope and the shape variants the node must tolerate. */
import type { Variants } from './types';

export const DEFAULT_VARIANTS: Variants = {
	bare: false,
	stringIds: false,
	plainValues: false,
	listWithoutStatus: false,
	wrapLists: false,
	stringStatus: false,
	detailWithoutStatus: false,
	partnerTokens: 'both',
};

const isIdKey = (key: string) => key === 'id' || key.endsWith('Id');
const isIdListKey = (key: string) => key.endsWith('Ids');

/** Renders integer ids (`id`, `*Id`, `*Ids`) as numeric strings, everywhere in the tree. */
export function stringifyIds(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(stringifyIds);
	if (!value || typeof value !== 'object') return value;
	const out: Record<string, unknown> = {};
	for (const [key, v] of Object.entries(value)) {
		if (isIdKey(key) && Number.isInteger(v)) out[key] = String(v);
		else if (isIdListKey(key) && Array.isArray(v)) out[key] = v.map((x) => (Number.isInteger(x) ? String(x) : x));
		else out[key] = stringifyIds(v);
	}
	return out;
}

/** The whole success body for `data` under the current variants. */
export function successBody(data: unknown, variants: Variants): unknown {
	let out = variants.stringIds ? stringifyIds(data) : data;
	if (variants.wrapLists && Array.isArray(out)) out = { items: out };
	return variants.bare ? out : { success: true, data: out };
}
