/**
 * The bench's HTTPS clients: one keep-alive call (the control calls and the ideal client), and
 * n8n-core's httpRequest alone (the helper our transport ends in), each run `n` times with a
 * number in flight.
 */
import https from 'https';

import type { IHttpRequestOptions } from 'n8n-workflow';

import { IDS, seconds } from './options';

/* eslint-disable @typescript-eslint/no-require-imports */
// n8n-core's HTTP helper, which httpRequestWithAuthentication ends in (deep path, as the harness does).
const n8nHttpRequest = () =>
	(
		require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions') as {
			httpRequest: (options: IHttpRequestOptions) => Promise<{ statusCode: number; body: string }>;
		}
	).httpRequest;
/* eslint-enable @typescript-eslint/no-require-imports */

export interface Service {
	/** Where the emulator answers directly (control calls, loopback measures). */
	direct: string;
	token: string;
	/** Base URL through the proxy of each round trip. */
	proxies: Record<string, string>;
}

export const controlAgent = new https.Agent({ keepAlive: true, maxSockets: 4 });

/** Where a call goes, with which token, over which agent (the control agent when none). */
interface Target {
	baseUrl: string;
	token: string;
	agent?: https.Agent;
}

/** One call over a keep-alive agent; PLAY/PAUSE are sent literally. Resolves the status and parsed body. */
function call(
	target: Target,
	method: string,
	urlPath: string,
	body?: unknown,
): Promise<{ status: number; body: unknown }> {
	const payload = body === undefined ? undefined : JSON.stringify(body);
	return new Promise((resolve, reject) => {
		const req = https.request(
			new URL(urlPath, target.baseUrl),
			{
				method,
				agent: target.agent ?? controlAgent,
				headers: {
					Authorization: `Bearer ${target.token}`,
					...(payload
						? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
						: {}),
				},
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					let parsed: unknown = text;
					try {
						parsed = JSON.parse(text);
					} catch {
						/* keep the text */
					}
					resolve({ status: res.statusCode ?? 0, body: parsed });
				});
			},
		);
		req.on('error', reject);
		req.end(payload);
	});
}

/** A call to the emulator with the user's token; its data, or an error when it failed. */
export async function dataOf<T>(
	service: Service,
	method: string,
	urlPath: string,
	body?: unknown,
): Promise<T> {
	const target = { baseUrl: service.direct, token: service.token };
	const res = await call(target, method, urlPath, body);
	if (res.status >= 300)
		throw new Error(`${method} ${urlPath} → ${res.status} ${JSON.stringify(res.body)}`);
	return ((res.body as { data?: unknown } | undefined)?.data ?? res.body) as T;
}

export const control = (service: Service, method: string, urlPath: string, body?: unknown) =>
	call({ baseUrl: service.direct, token: '' }, method, `/__emulator${urlPath}`, body);

/** `n` tasks, `inFlight` at once; resolves the seconds taken. */
async function timedPool(
	n: number,
	inFlight: number,
	task: (i: number) => Promise<void>,
): Promise<number> {
	let next = 0;
	const started = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: Math.min(n, inFlight) }, async () => {
			while (next < n) await task(next++);
		}),
	);
	return seconds(started);
}

/** The ideal client: keep-alive sockets (one TLS handshake per socket), body parsed as the node does. */
export async function idealGets(
	baseUrl: string,
	token: string,
	n: number,
	inFlight: number,
): Promise<number> {
	const agent = new https.Agent({ keepAlive: true, maxSockets: inFlight });
	try {
		return await timedPool(n, inFlight, async (i) => {
			const res = await call(
				{ baseUrl, token, agent },
				'GET',
				`/solution/installation/${IDS[i % IDS.length]}`,
			);
			if (res.status !== 200) throw new Error(`ideal GET → ${res.status}`);
		});
	} finally {
		agent.destroy();
	}
}

/** n8n-core's httpRequest alone, with the options our transport sends (no engine, header set by hand). */
function helperGet(baseUrl: string, token: string, id: number) {
	return n8nHttpRequest()({
		method: 'GET',
		url: `${baseUrl}/solution/installation/${id}`,
		headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: 30_000,
	});
}

export function helperGets(
	baseUrl: string,
	token: string,
	n: number,
	inFlight: number,
): Promise<number> {
	return timedPool(n, inFlight, async (i) => {
		const response = await helperGet(baseUrl, token, IDS[i % IDS.length]);
		if (response.statusCode !== 200) throw new Error(`helper GET → ${response.statusCode}`);
		JSON.parse(response.body);
	});
}
