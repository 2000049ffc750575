/**
 * Fault rules: statuses, Retry-After, delays, resets before/after, malformed JSON, success: false.
 */
import axios from 'axios';

import { startEmulator, type Emulator } from '../../emulator';
import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { auth, call, raw } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const installBody = {
	title: 'dup?',
	templateIds: [1021],
	credentialData: VALID_CREDENTIAL_DATA[102],
};

describe('faults', () => {
	it.each([500, 502, 503])('answers %i once, then normally; nothing applied', async (status) => {
		emu.faults.add({ method: 'PAUSE', path: '/solution/installation/5001', status });
		const res = await call(emu, 'PAUSE', '/solution/installation/5001');
		expect(res.status).toBe(status);
		expect(res.data.success).toBe(false);
		expect(emu.state.installations.get(5001)!.status).toBe(1);
		expect((await call(emu, 'PAUSE', '/solution/installation/5001')).status).toBe(200);
		expect(emu.requests.map((r) => [r.status, r.fault])).toEqual([
			[status, `status:${status}`],
			[200, undefined],
		]);
	});

	it('429 with Retry-After, N times, matching a RegExp path and any method', async () => {
		emu.faults.add({
			path: /^\/solution\/installation\/\d+$/,
			status: 429,
			retryAfterSeconds: 7,
			times: 2,
		});
		const first = await call(emu, 'GET', '/solution/installation/5001');
		expect(first.status).toBe(429);
		expect(first.headers['retry-after']).toBe('7');
		expect(emu.faults.list()[0].times).toBe(1);
		expect((await call(emu, 'PLAY', '/solution/installation/5002')).status).toBe(429);
		expect(emu.faults.list()).toEqual([]);
		expect((await call(emu, 'GET', '/solution/installation/5001')).status).toBe(200);
		emu.faults.add({ path: '/solution/apps', status: 429 });
		expect((await call(emu, 'GET', '/solution/apps')).headers['retry-after']).toBe('1');
	});

	it('does not match another method or path', async () => {
		emu.faults.add({ method: 'POST', path: '/solution/apps', status: 500 });
		expect((await call(emu, 'GET', '/solution/apps')).status).toBe(200);
		expect((await call(emu, 'GET', '/solution/installation')).status).toBe(200);
		expect(emu.faults.list()).toHaveLength(1);
		emu.faults.clear();
		expect(emu.faults.list()).toEqual([]);
	});

	it('delays the response (client timeouts)', async () => {
		emu.faults.add({ path: '/solution/apps', delayMs: 300 });
		await expect(
			axios.get(`${emu.baseUrl}/solution/apps`, { headers: auth(emu), timeout: 100 }),
		).rejects.toThrow(/timeout/);
		emu.faults.add({ path: '/solution/apps', delayMs: 150 });
		const started = Date.now();
		expect((await call(emu, 'GET', '/solution/apps')).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});

	it("reset 'before': connection dropped, nothing applied", async () => {
		emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'before' });
		await expect(
			call(emu, 'POST', '/solution/102/installation', { body: installBody }),
		).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|socket hang up/) });
		expect(emu.state.installations.size).toBe(3);
		expect(emu.requests[0]).toMatchObject({ method: 'POST', status: 0, fault: 'reset:before' });
	});

	it("reset 'after': the installation is created but the response is lost (a retry duplicates it)", async () => {
		emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'after' });
		await expect(
			call(emu, 'POST', '/solution/102/installation', { body: installBody }),
		).rejects.toThrow();
		expect([...emu.state.installations.values()].filter((i) => i.title === 'dup?')).toHaveLength(1);
		expect(emu.requests[0]).toMatchObject({ status: 201, fault: 'reset:after' });
		expect(
			(await call(emu, 'POST', '/solution/102/installation', { body: installBody })).status,
		).toBe(201);
		expect([...emu.state.installations.values()].filter((i) => i.title === 'dup?')).toHaveLength(2);
	});

	it('malformed JSON: applied, body cut short', async () => {
		emu.faults.add({ method: 'PAUSE', path: '/solution/installation/5001', malformedJson: true });
		const res = await raw(emu, 'PAUSE', '/solution/installation/5001', { headers: auth(emu) });
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toMatch(/application\/json/);
		expect(() => JSON.parse(res.text)).toThrow();
		expect(emu.state.installations.get(5001)!.status).toBe(0);
	});

	it('200 with success: false, nothing applied', async () => {
		emu.faults.add({ method: 'PLAY', path: '/solution/installation/5002', successFalse: true });
		const res = await call(emu, 'PLAY', '/solution/installation/5002');
		expect(res.status).toBe(200);
		expect(res.data.success).toBe(false);
		expect(emu.state.installations.get(5002)!.status).toBe(0);
	});
});
