/**
 * The probe's envelope and error parts: whether bodies come bare or as {success, data} (and the
 * flag's type), and the style of an error body, read from an installation that cannot exist.
 */
import type { ErrorStyle } from '../../emulator/types';
import { successFlagOf, unwrapEnvelope } from '../../nodes/shared/readers/shapes';
import type { Probe } from './context';
import { describe, isObject, type Json } from './shapes';

/** The envelope of a body the service answered (200) with. */
export function probeEnvelope({ say, variants }: Probe, body: Json): void {
	variants.bare = body === unwrapEnvelope(body);
	say('envelope', variants.bare ? 'bare bodies (no {success, data})' : '{success, data}');
	if (variants.bare || successFlagOf(body) === undefined) return;
	const flag = (body as Record<string, unknown>).success;
	variants.successFlag =
		typeof flag === 'boolean' ? 'boolean' : typeof flag === 'number' ? 'number' : 'string';
	say('success flag', `${JSON.stringify(flag)} (${variants.successFlag})`);
}

/** The error style, from GET /solution/installation/0; undefined when not told. */
export async function probeErrors({ get, say, unknown }: Probe): Promise<ErrorStyle | undefined> {
	const missing = await get('/solution/installation/0');
	if (missing.status < 400) {
		unknown('error bodies', `GET /solution/installation/0 answered ${missing.status}`);
		return undefined;
	}
	const style = errorStyle(missing.body, missing.contentType);
	if (style)
		say(
			'error bodies',
			`${style} (status ${missing.status}: "${String(errorText(missing.body)).slice(0, 120)}")`,
		);
	else unknown('error bodies', `status ${missing.status}, ${describe(missing.body)}`);
	return style;
}

function errorStyle(body: Json, contentType: string): ErrorStyle | undefined {
	if (typeof body === 'string')
		return /text\/plain/.test(contentType) || body.trim() ? 'text' : undefined;
	if (Array.isArray(body)) return 'yii';
	if (!isObject(body)) return undefined;
	if (Array.isArray(body.errors))
		return body.errors.every((e) => typeof e === 'string') ? 'strings' : 'errors';
	if (isObject(body.errors)) return 'fieldMap';
	if (Array.isArray(body.data)) return 'yiiData';
	if (isObject(body.error)) return 'errorObject';
	if (typeof body.message === 'string')
		return 'name' in body && 'status' in body ? 'yii' : 'message';
	return undefined;
}

/** The message of an error body, as text. */
export function errorText(body: Json): string {
	if (typeof body === 'string') return body;
	const entries = (list: unknown[]) =>
		list.map((e) => (isObject(e) ? String(e.message ?? '') : String(e))).join('; ');
	if (Array.isArray(body)) return entries(body);
	if (isObject(body)) {
		if (typeof body.message === 'string') return body.message;
		for (const key of ['errors', 'data'])
			if (Array.isArray(body[key])) return entries(body[key] as unknown[]);
		return JSON.stringify(body.errors ?? body);
	}
	return JSON.stringify(body);
}
