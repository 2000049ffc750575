/** Shared helpers for the emulator tests: real HTTP over loopback, never mocks. */
import axios, { type AxiosResponse } from 'axios';
import http from 'http';

import type { Emulator } from '../../emulator';

export interface CallOptions {
	body?: unknown;
	/** Token to send; default emu.token(); null = no Authorization header. */
	token?: string | null;
	headers?: Record<string, string>;
}

/** Any method (PLAY, PAUSE included) through axios; never throws on a status. */
export function call(
	emu: Emulator,
	method: string,
	path: string,
	opts: CallOptions = {},
): Promise<AxiosResponse> {
	const token = opts.token === undefined ? emu.token() : opts.token;
	return axios.request({
		url: emu.baseUrl + path,
		method,
		data: opts.body,
		headers: { ...(token !== null && { Authorization: `Bearer ${token}` }), ...opts.headers },
		validateStatus: () => true,
		// Keep bodies as text when asked for plain-text errors.
		transitional: { silentJSONParsing: true },
	});
}

/** Raw request with http.request (custom methods allowed); body as a string. */
export function raw(
	emu: Emulator,
	method: string,
	path: string,
	opts: { body?: string; headers?: Record<string, string>; agent?: http.Agent } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; socket: unknown }> {
	return new Promise((resolve, reject) => {
		const req = http.request(
			emu.baseUrl + path,
			{ method, headers: opts.headers, agent: opts.agent },
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (c: string) => (text += c));
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, headers: res.headers, text, socket: req.socket }),
				);
			},
		);
		req.on('error', reject);
		req.end(opts.body);
	});
}

export const auth = (emu: Emulator, sub = 'user-1') => ({
	Authorization: `Bearer ${emu.token({ sub })}`,
});
