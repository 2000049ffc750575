/** PLAY and PAUSE get past Node's HTTP parser from every kind of client. */
import http from 'http';
import net from 'net';

import { startEmulator, type Emulator } from '../../emulator';
import { auth, call, raw } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const statusOf = (text: string) => JSON.parse(text).data.status as number;

/**
 * Writes `parts` on a fresh socket, with a pause between them; resolves with everything read until
 * close.
 */
function rawExchange(parts: string[]): Promise<string> {
	const { port, hostname } = new URL(emu.baseUrl);
	return new Promise((resolve, reject) => {
		const socket = net.connect(Number(port), hostname);
		socket.setNoDelay(true);
		let text = '';
		socket.on('data', (c) => (text += c.toString('latin1')));
		socket.on('end', () => resolve(text));
		socket.on('error', reject);
		socket.on('connect', async () => {
			for (const part of parts) {
				socket.write(part);
				await new Promise((r) => setTimeout(r, 30));
			}
		});
	});
}

describe('custom methods', () => {
	it('work from axios', async () => {
		expect((await call(emu, 'PAUSE', '/solution/installation/5001')).data.data.status).toBe(0);
		expect((await call(emu, 'PLAY', '/solution/installation/5001')).data.data.status).toBe(1);
		expect(emu.requests.map((r) => r.method)).toEqual(['PAUSE', 'PLAY']);
	});

	it('work with the request line split across TCP packets, answered with Connection: close', async () => {
		const token = emu.token();
		const response = await rawExchange([
			'PA',
			'USE /solution/install',
			`ation/5001 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`,
		]);
		expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
		expect(response).toMatch(/connection: close/i);
		expect(statusOf(response.slice(response.indexOf('\r\n\r\n') + 4))).toBe(0);
		expect(emu.requests[0]).toMatchObject({
			method: 'PAUSE',
			path: '/solution/installation/5001',
			status: 200,
			user: 'user-1',
		});
	});

	it('work on a keep-alive agent, several in a row and mixed with GETs on the same agent', async () => {
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
		try {
			const seq = ['PAUSE', 'PLAY', 'GET', 'PAUSE', 'GET', 'GET', 'PLAY', 'PAUSE'];
			const statuses: number[] = [];
			for (const method of seq) {
				const res = await raw(emu, method, '/solution/installation/5001', {
					agent,
					headers: auth(emu),
				});
				expect(res.status).toBe(200);
				statuses.push(statusOf(res.text));
				if (method === 'GET') expect(res.headers.connection).toBe('keep-alive');
				else expect(res.headers.connection).toBe('close');
			}
			expect(statuses).toEqual([0, 1, 1, 0, 0, 0, 1, 0]);
		} finally {
			agent.destroy();
		}
	});

	it('keep ordinary keep-alive requests on one socket', async () => {
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
		try {
			const a = await raw(emu, 'GET', '/solution/apps', { agent, headers: auth(emu) });
			const b = await raw(emu, 'GET', '/solution/installation', { agent, headers: auth(emu) });
			expect(a.socket).toBe(b.socket);
		} finally {
			agent.destroy();
		}
	});

	it('keeps a request body intact after a PUT on the same socket', async () => {
		await call(emu, 'PAUSE', '/solution/installation/5001');
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
		try {
			const headers = { ...auth(emu), 'Content-Type': 'application/json' };
			// A body whose text looks like a request line must not be taken for one.
			const put = await raw(emu, 'PUT', '/bundle/data/9002', {
				agent,
				headers,
				body: JSON.stringify({ data: { subject: 'PLAY /x HTTP/1.1' } }),
			});
			expect(put.status).toBe(200);
			const play = await raw(emu, 'PLAY', '/solution/installation/5001', {
				agent,
				headers: auth(emu),
			});
			expect(statusOf(play.text)).toBe(1);
		} finally {
			agent.destroy();
		}
	});

	it('ignore a client-sent x-http-method header on a real POST', async () => {
		const res = await call(emu, 'POST', '/solution/installation/5001', {
			headers: { 'x-http-method': 'PAUSE' },
		});
		expect(res.status).toBe(405);
		expect(emu.state.installations.get(5001)!.status).toBe(1);
	});

	it("work from n8n-core's request helper", async () => {
		// Deep import: n8n-core does not re-export httpRequest from its index.
		const { httpRequest } =
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions') as {
				httpRequest: (
					o: Record<string, unknown>,
				) => Promise<{ statusCode: number; body: { data: { status: number } } }>;
			};
		const send = (method: string) =>
			httpRequest({
				url: `${emu.baseUrl}/solution/installation/5001`,
				method,
				headers: auth(emu),
				json: true,
				returnFullResponse: true,
			});
		const results = [];
		for (const method of ['GET', 'PAUSE', 'GET', 'PLAY', 'PAUSE'])
			results.push((await send(method)).body.data.status);
		expect(results).toEqual([1, 0, 0, 1, 0]);
	});
});
