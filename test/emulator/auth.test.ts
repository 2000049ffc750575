/**
 * Bearer JWT on every call: missing, malformed, badly signed, expired → 401 with a clear message.
 */
import jwt from 'jsonwebtoken';

import { startEmulator, type Emulator } from '../../emulator';
import { call } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ secret: 'test-secret' });
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const messageOf = (data: { errors: { message: string }[] }) => data.errors[0].message;

describe('auth', () => {
	it('signs HS256 tokens for user-1 valid 1 h by default', () => {
		const payload = jwt.verify(emu.token(), 'test-secret', {
			algorithms: ['HS256'],
		}) as jwt.JwtPayload;
		expect(payload.sub).toBe('user-1');
		expect(payload.exp! - Date.now() / 1000).toBeGreaterThan(3590);
		expect(
			(jwt.decode(emu.token({ expiresInSeconds: 60 })) as jwt.JwtPayload).exp! - Date.now() / 1000,
		).toBeLessThan(61);
	});

	it('401 without a token, on every endpoint', async () => {
		for (const [method, path] of [
			['GET', '/solution/apps'],
			['GET', '/solution/101/credentialists'],
			['GET', '/solution/101/templates'],
			['POST', '/solution/101/installation'],
			['PLAY', '/solution/installation/5001'],
			['PAUSE', '/solution/installation/5001'],
			['GET', '/solution/installation'],
			['GET', '/solution/installation/5001'],
			['GET', '/bundle/data?filter[bundleId]=7001'],
			['PUT', '/bundle/data/9001'],
			['GET', '/credentials/201/meta'],
			['POST', '/credentials/201'],
		]) {
			const res = await call(emu, method, path, { token: null });
			expect([method, path, res.status]).toEqual([method, path, 401]);
			expect(res.headers['www-authenticate']).toBe('Bearer');
		}
		expect(messageOf((await call(emu, 'GET', '/solution/apps', { token: null })).data)).toMatch(
			/Missing Authorization header/,
		);
		expect(emu.state.installations.get(5001)!.status).toBe(1);
	});

	it('401 for another scheme, a malformed token, a bad signature, another algorithm, no sub', async () => {
		const basic = await call(emu, 'GET', '/solution/apps', {
			token: null,
			headers: { Authorization: 'Basic dTpw' },
		});
		expect(messageOf(basic.data)).toMatch(/Bearer/);
		const malformed = await call(emu, 'GET', '/solution/apps', { token: 'not-a-jwt' });
		expect(malformed.status).toBe(401);
		expect(messageOf(malformed.data)).toMatch(/Malformed token/);
		const forged = await call(emu, 'GET', '/solution/apps', {
			token: jwt.sign({ sub: 'user-1' }, 'other-secret'),
		});
		expect(forged.status).toBe(401);
		expect(messageOf(forged.data)).toBe('Invalid token signature');
		const hs512 = await call(emu, 'GET', '/solution/apps', {
			token: jwt.sign({ sub: 'user-1' }, 'test-secret', { algorithm: 'HS512' }),
		});
		expect(messageOf(hs512.data)).toMatch(/HS256/);
		const noSub = await call(emu, 'GET', '/solution/apps', {
			token: jwt.sign({ foo: 1 }, 'test-secret'),
		});
		expect(messageOf(noSub.data)).toMatch(/sub/);
	});

	it('401 for an expired token, saying when it expired', async () => {
		const exp = Math.floor(Date.now() / 1000) - 60;
		const res = await call(emu, 'GET', '/solution/apps', { token: emu.token({ exp }) });
		expect(res.status).toBe(401);
		expect(messageOf(res.data)).toBe(`Token expired at ${new Date(exp * 1000).toISOString()}`);
		expect(emu.requests[0]).toMatchObject({ status: 401, user: null });
	});

	it('honours exp even for a token already accepted once', async () => {
		// exp is in whole seconds: 1 s could end a moment after issue; 3 s leaves room on a loaded
		// machine.
		const token = emu.token({ expiresInSeconds: 3 });
		expect((await call(emu, 'GET', '/solution/apps', { token })).status).toBe(200);
		await new Promise((r) => setTimeout(r, 3100));
		expect((await call(emu, 'GET', '/solution/apps', { token })).status).toBe(401);
	});
});
