/** The wire: one request read where it enters (method, path, query, body) and one answer sent. */
import type http from 'http';
import qs from 'qs';

import { jsonBody, type Outcome } from './answer';
import { ApiError } from './errors';
import { customMethodOf, trackRequestEnd } from './front';

const BODY_LIMIT = 1024 * 1024;

/** One request as it entered: the method (custom ones restored), the path, the raw query and body. */
export interface ReceivedRequest {
	method: string;
	url: string;
	path: string;
	rawQuery: string;
	rawBody: Buffer;
}

/** PHP/Yii-like query parsing: `+` is a space, brackets (raw or %5B%5D) build objects, last duplicate wins. */
export const parseQuery = (raw: string) =>
	qs.parse(raw, { parseArrays: false, duplicates: 'last', depth: 5 }) as Record<string, unknown>;

export function parseJsonObject(
	raw: Buffer,
	contentType: string | undefined,
): Record<string, unknown> {
	if (raw.length === 0) return {};
	if (!contentType || !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
		throw new ApiError(415, `Content-Type must be application/json (got ${contentType ?? 'none'})`);
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(raw.toString('utf8'));
	} catch (err) {
		throw new ApiError(400, `Invalid JSON body: ${(err as Error).message}`);
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
		throw new ApiError(400, 'JSON body must be an object');
	return parsed as Record<string, unknown>;
}

export function bodyForLog(raw: Buffer): unknown {
	if (raw.length === 0) return undefined;
	const text = raw.toString('utf8');
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

export function readBody(req: http.IncomingMessage): Promise<Buffer> {
	const declared = Number(req.headers['content-length'] ?? 0);
	if (declared > BODY_LIMIT)
		return Promise.reject(new ApiError(413, `Body larger than ${BODY_LIMIT} bytes`));
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= BODY_LIMIT) chunks.push(chunk);
		});
		req.on('end', () =>
			size > BODY_LIMIT
				? reject(new ApiError(413, `Body larger than ${BODY_LIMIT} bytes`))
				: resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)),
		);
		req.on('error', reject);
	});
}

/** Answers with a JSON body (the control surface's answers). */
export function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
	send(res, { status, body: jsonBody(value) });
}

export function send(res: http.ServerResponse, out: Outcome): void {
	if (res.destroyed) return;
	res.writeHead(out.status, {
		...out.headers,
		'Content-Type': out.body.contentType,
		'Content-Length': Buffer.byteLength(out.body.text),
	});
	res.end(out.body.text);
}

/** Drops the connection with no response (an RST where the platform allows). */
export function reset(req: http.IncomingMessage): void {
	const socket = req.socket;
	if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
	else socket.destroy();
}

// Unreferenced: a fault's delay still pending when a test's server closes keeps no process alive.
export const sleep = async (ms: number) =>
	await new Promise((resolve) => {
		setTimeout(resolve, ms).unref();
	});

/**
 * Reads one request where it enters (custom method, path, query, body). When the body cannot be
 * read it answers the error itself (in `errorBody`'s words) and gives undefined.
 */
export async function receive(
	req: http.IncomingMessage,
	res: http.ServerResponse,
	errorBody: (error: ApiError) => Outcome['body'],
): Promise<ReceivedRequest | undefined> {
	trackRequestEnd(req, res);
	const custom = customMethodOf(req);
	// Rewritten requests close their connection: the next request then starts on a fresh socket.
	if (custom) res.setHeader('Connection', 'close');
	const method = custom ?? req.method ?? 'GET';
	const url = req.url ?? '/';
	const q = url.indexOf('?');
	const path = q === -1 ? url : url.slice(0, q);
	const rawQuery = q === -1 ? '' : url.slice(q + 1);

	let rawBody: Buffer;
	try {
		rawBody = await readBody(req);
	} catch (err) {
		if (!(err instanceof ApiError)) throw err;
		res.setHeader('Connection', 'close');
		send(res, { status: err.status, body: errorBody(err) });
		return undefined;
	}

	return { method, url, path, rawQuery, rawBody };
}
