/** Endpoints 11–12: partner schema and credential creation. */
import { startEmulator, type Emulator } from '../../emulator';
import { call } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

describe('GET /credentials/{partnerId}/meta', () => {
	it('returns the fields with types and allowed values', async () => {
		const res = await call(emu, 'GET', '/credentials/201/meta');
		expect(res.status).toBe(200);
		expect(res.data.data.fields).toEqual([
			{ id: 'apiUrl', type: 0, label: 'API URL', required: true },
			{ id: 'apiKey', type: 3, label: 'API key', required: true },
			{
				id: 'region',
				type: 10,
				label: 'Region',
				required: true,
				allowedValues: { eu: 'Europe', us: 'United States' },
			},
		]);
		const p202 = await call(emu, 'GET', '/credentials/202/meta');
		expect(
			p202.data.data.fields.map((f: { id: string; required: boolean }) => [f.id, f.required]),
		).toEqual([
			['token', true],
			['account', false],
		]);
		expect((await call(emu, 'GET', '/credentials/999/meta')).status).toBe(404);
	});
});

describe('POST /credentials/{partnerId}', () => {
	it('stores the credential for the caller and never echoes secrets in full', async () => {
		const res = await call(emu, 'POST', '/credentials/201', {
			body: {
				title: 'Acme prod',
				apiUrl: 'https://acme.example',
				apiKey: 'secret-0123abcdef',
				region: 'eu',
			},
		});
		expect(res.status).toBe(201);
		expect(res.data.data).toMatchObject({
			id: 8001,
			partnerId: 201,
			title: 'Acme prod',
			values: { apiUrl: 'https://acme.example', apiKey: '****cdef', region: 'eu' },
		});
		expect(JSON.stringify(res.data)).not.toContain('secret-0123abcdef');
		expect(emu.state.credentials.get(8001)).toMatchObject({
			userId: 'user-1',
			values: { apiKey: 'secret-0123abcdef' },
		});
		const short = await call(emu, 'POST', '/credentials/202', {
			body: { title: 'Chat', token: 'abc' },
		});
		expect(short.data.data.values).toEqual({ token: '****' });
	});

	it('400 with one entry per problem: missing title or field, unknown key, value not allowed, wrong type', async () => {
		const res = await call(emu, 'POST', '/credentials/201', {
			body: { apiUrl: 'x', region: 'asia', extra: 1 },
		});
		expect(res.status).toBe(400);
		expect(res.data.errors.map((e: { field: string }) => e.field)).toEqual([
			'title',
			'apiKey',
			'region',
			'extra',
		]);
		const types = await call(emu, 'POST', '/credentials/202', { body: { title: '', token: 42 } });
		expect(types.data.errors.map((e: { field: string }) => e.field)).toEqual(['title', 'token']);
		expect(emu.state.credentials.size).toBe(0);
	});

	it('404 for an unknown partner, 405 for GET', async () => {
		expect((await call(emu, 'POST', '/credentials/999', { body: { title: 'x' } })).status).toBe(
			404,
		);
		expect((await call(emu, 'GET', '/credentials/201')).status).toBe(405);
	});
});
