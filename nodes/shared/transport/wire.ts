/** What goes on the wire and comes back: path segments, query strings, bodies. */
import type { IDataObject } from 'n8n-workflow';

import type { CallOptions } from './callOptions';
import { INVALID_JSON } from './serviceMessage';

/** What identifies a list item across pages: its id, else the whole item. */
export const itemKey = (item: IDataObject) =>
	item.id !== undefined && item.id !== null ? `id:${String(item.id)}` : JSON.stringify(item);

/** Encodes one URL path segment (ids come from users and expressions). */
export function segment(value: string | number): string {
	return encodeURIComponent(String(value));
}

export function queryString({ query, rawQuery }: CallOptions): string {
	const parts = Object.entries(query ?? {}).map(
		([key, value]) =>
			`${encodeURIComponent(key).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(String(value))}`,
	);
	if (rawQuery) parts.push(rawQuery);
	return parts.length ? `?${parts.join('&')}` : '';
}

export function parseBody(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	if (body.trim() === '') return undefined;
	try {
		return JSON.parse(body);
	} catch {
		return INVALID_JSON;
	}
}
