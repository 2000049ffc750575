/** The control surface over HTTP, the request log, reset and the CLI. */
import axios from 'axios';
import { spawn } from 'child_process';
import path from 'path';

import { startEmulator, type Emulator } from '../../emulator';
import { call } from './helpers';

let emu: Emulator;
let lines: string[] = [];
beforeAll(async () => {
	emu = await startEmulator({ log: (line) => lines.push(line) });
});
afterAll(() => emu.close());
beforeEach(() => {
	emu.reset();
	lines = [];
});

const control = (method: string, p: string, data?: unknown) =>
	axios.request({
		url: `${emu.baseUrl}/__emulator/${p}`,
		method,
		data,
		validateStatus: () => true,
	});

describe('request log', () => {
	it('records every service call (not control calls) with parsed query, body, user and status', async () => {
		await call(emu, 'GET', '/solution/101/credentialists?credentialData%5Bcrm%5D=hubspot&x=a+b');
		await call(emu, 'PUT', '/bundle/data/9006', {
			body: { data: { subject: 'y' } },
			token: emu.token({ sub: 'user-2' }),
		});
		await control('GET', 'requests');
		expect(emu.requests).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: '/solution/101/credentialists',
				rawQuery: 'credentialData%5Bcrm%5D=hubspot&x=a+b',
				query: { credentialData: { crm: 'hubspot' }, x: 'a b' },
				user: 'user-1',
				status: 200,
				body: undefined,
			}),
			expect.objectContaining({
				method: 'PUT',
				path: '/bundle/data/9006',
				body: { data: { subject: 'y' } },
				user: 'user-2',
				status: 404,
			}),
		]);
		expect(typeof emu.requests[0].at).toBe('string');
		expect(lines).toHaveLength(2);
		expect(lines[1]).toMatch(/PUT \/bundle\/data\/9006 404 user-2/);
	});
});

describe('/__emulator/ over HTTP', () => {
	it('lists requests, manages faults, error style, variants, tokens, state, reset', async () => {
		await call(emu, 'GET', '/solution/apps');
		expect((await control('GET', 'requests')).data).toHaveLength(1);

		expect(
			(
				await control('POST', 'faults', {
					method: 'GET',
					path: '^/solution/\\d+/templates$',
					regex: true,
					status: 503,
					times: 2,
				})
			).status,
		).toBe(201);
		// The RegExp comes back as its source (slashes escaped by RegExp).
		expect((await control('GET', 'faults')).data).toEqual([
			{
				method: 'GET',
				path: new RegExp('^/solution/\\d+/templates$').source,
				regex: true,
				status: 503,
				times: 2,
			},
		]);
		expect((await call(emu, 'GET', '/solution/101/templates')).status).toBe(503);
		expect((await control('DELETE', 'faults')).status).toBe(200);
		expect((await call(emu, 'GET', '/solution/101/templates')).status).toBe(200);
		expect((await control('POST', 'faults', { status: 500 })).status).toBe(400);

		await control('POST', 'error-style', { style: 'message' });
		expect((await call(emu, 'GET', '/solution/installation/1')).data).toEqual({
			message: 'Installation 1 not found',
		});
		expect((await control('POST', 'error-style', { style: 'nope' })).status).toBe(400);

		await control('POST', 'variants', { bare: true });
		expect((await call(emu, 'GET', '/solution/apps')).data).toHaveLength(4);

		const { token } = (await control('POST', 'token', { sub: 'user-2' })).data;
		expect(
			(await call(emu, 'GET', '/solution/installation', { token })).data.map(
				(i: { id: number }) => i.id,
			),
		).toEqual([5003]);

		expect((await control('DELETE', 'installations/5002')).status).toBe(200);
		const state = (await control('GET', 'state')).data;
		expect(state.installations.map((i: { id: number }) => i.id)).toEqual([5001, 5003]);

		expect((await control('POST', 'reset')).status).toBe(200);
		expect(emu.requests).toEqual([]);
		expect(emu.state.installations.has(5002)).toBe(true);
		expect((await call(emu, 'GET', '/solution/apps')).data.success).toBe(true);
		expect((await control('GET', 'nope')).status).toBe(404);
		expect((await control('GET', '')).data.routes.length).toBeGreaterThan(5);
	});

	it('needs no auth and is never logged', async () => {
		await control('GET', 'faults');
		expect(emu.requests).toEqual([]);
	});
});

describe('cli', () => {
	it('prints the base URL, a token and a curl example, and logs requests', async () => {
		const cli = path.join(__dirname, '..', '..', 'emulator', 'cli.ts');
		const child = spawn(
			process.execPath,
			['-r', 'ts-node/register/transpile-only', cli, '--port', '0'],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		try {
			let out = '';
			await new Promise<void>((resolve, reject) => {
				child.on('exit', (code) => reject(new Error(`exited ${code}`)));
				child.stdout.on('data', (c: Buffer) => {
					out += c.toString();
					if (/Control surface/.test(out)) resolve();
				});
			});
			const baseUrl = /Base URL: (\S+)/.exec(out)![1];
			const token = /Token \(user-1, valid 24 h\): (\S+)/.exec(out)![1];
			expect(out).toMatch(/curl -s -H "Authorization: Bearer /);
			const res = await axios.get(`${baseUrl}/solution/apps`, {
				headers: { Authorization: `Bearer ${token}` },
			});
			expect(res.data.success).toBe(true);
			await new Promise((r) => setTimeout(r, 100));
			expect(out).toMatch(/GET \/solution\/apps 200 user-1/);
		} finally {
			child.removeAllListeners('exit');
			const exited = new Promise((r) => child.once('exit', r));
			child.kill('SIGINT');
			await exited;
		}
	});
});
