/**
 * What every part of the probe reads and tells through: one GET with the end-user token, the
 * report's `say` and `unknown` (already redacted), and the variants recognised so far.
 */
import type { Variants } from '../../emulator/types';
import type { Json } from './shapes';

/** One GET's answer: the body parsed as JSON when it is, else the text. */
export interface Answer {
	status: number;
	body: Json;
	text: string;
	contentType: string;
	headers: Record<string, string>;
}

export type Say = (shape: string, what: string) => void;

export interface Probe {
	get: (path: string) => Promise<Answer>;
	say: Say;
	unknown: Say;
	variants: Partial<Variants>;
}

/** A GET for the probe's reads, each noted in `calls` (path and status only). */
export function getter(
	base: string,
	doFetch: typeof fetch,
	authorization: string,
	calls: string[],
): Probe['get'] {
	return async (path) => {
		const response = await doFetch(base + path, {
			headers: { Authorization: authorization, Accept: 'application/json' },
		});
		const text = await response.text();
		let body: Json = text;
		try {
			body = text.trim() === '' ? undefined : JSON.parse(text);
		} catch {
			// Plain text stays text.
		}
		calls.push(`GET ${path} → ${response.status}`);
		return {
			status: response.status,
			body,
			text,
			contentType: response.headers.get('content-type') ?? '',
			headers: Object.fromEntries(response.headers.entries()),
		};
	};
}
