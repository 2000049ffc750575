/** Endpoints 9–10: bundle field values. */
import { startEmulator, type Emulator } from '../../emulator';
import { call } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const byName = (records: { data: { name: string; value: unknown }[] }[], name: string) =>
	records.flatMap((r) => r.data).find((f) => f.name === name)?.value;

describe('GET /bundle/data', () => {
	it('returns the step records with strings, numbers, booleans and list references', async () => {
		const res = await call(emu, 'GET', '/bundle/data?filter[bundleId]=7001');
		expect(res.status).toBe(200);
		const records = res.data.data;
		expect(records.map((r: { id: number; bundleId: number }) => [r.id, r.bundleId])).toEqual([
			[9001, 7001],
			[9002, 7001],
		]);
		expect(records[0].data[0]).toEqual({
			name: 'cf__8ad75c3e1f2b4a90',
			label: 'Lead source',
			value: 'website',
		});
		const values = records.flatMap((r: { data: { value: unknown }[] }) =>
			r.data.map((f) => f.value),
		);
		expect(values).toEqual(expect.arrayContaining(['website', 40, true, false, '{%12:345%}']));
	});

	it('accepts percent-encoded brackets', async () => {
		const res = await call(emu, 'GET', '/bundle/data?filter%5BbundleId%5D=7002');
		expect(res.data.data.map((r: { id: number }) => r.id)).toEqual([9003, 9004]);
	});

	it("422 without or with a non-integer filter, 404 for unknown or another user's bundle", async () => {
		expect((await call(emu, 'GET', '/bundle/data')).status).toBe(422);
		expect((await call(emu, 'GET', '/bundle/data?filter[bundleId]=abc')).status).toBe(422);
		expect((await call(emu, 'GET', '/bundle/data?filter[bundleId]=1')).status).toBe(404);
		expect((await call(emu, 'GET', '/bundle/data?filter[bundleId]=7004')).status).toBe(404);
		expect(
			(
				await call(emu, 'GET', '/bundle/data?filter[bundleId]=7004', {
					token: emu.token({ sub: 'user-2' }),
				})
			).status,
		).toBe(200);
	});
});

describe('PUT /bundle/data/{stepId}', () => {
	it('changes values of a paused installation; the next read shows them', async () => {
		const res = await call(emu, 'PUT', '/bundle/data/9006', {
			body: {
				data: {
					subject: 'Hello',
					listId: '{%12:999%}',
					cf__4c2d9e8f0a1b4c3d: 30,
					doubleOptIn: true,
				},
			},
		});
		expect(res.status).toBe(200);
		expect(res.data).toEqual({ success: true, data: { id: 9006 } });
		const read = await call(emu, 'GET', '/bundle/data?filter[bundleId]=7003');
		expect(byName(read.data.data, 'subject')).toBe('Hello');
		expect(byName(read.data.data, 'listId')).toBe('{%12:999%}');
		expect(byName(read.data.data, 'cf__4c2d9e8f0a1b4c3d')).toBe(30);
		expect(byName(read.data.data, 'doubleOptIn')).toBe(true);
	});

	it('422 "pause the installation first" while active, then works after PAUSE', async () => {
		const res = await call(emu, 'PUT', '/bundle/data/9002', { body: { data: { subject: 'x' } } });
		expect(res.status).toBe(422);
		expect(res.data.errors[0].message).toContain('pause the installation first');
		await call(emu, 'PAUSE', '/solution/installation/5001');
		expect(
			(await call(emu, 'PUT', '/bundle/data/9002', { body: { data: { subject: 'x' } } })).status,
		).toBe(200);
	});

	it('422 per unknown field code or wrong type; nothing applied', async () => {
		const res = await call(emu, 'PUT', '/bundle/data/9006', {
			body: {
				data: {
					subject: 'ok',
					nope: 1,
					doubleOptIn: 'yes',
					listId: 'plain',
					cf__4c2d9e8f0a1b4c3d: '5',
				},
			},
		});
		expect(res.status).toBe(422);
		expect(res.data.errors.map((e: { field: string }) => e.field)).toEqual([
			'data.nope',
			'data.doubleOptIn',
			'data.listId',
			'data.cf__4c2d9e8f0a1b4c3d',
		]);
		expect(emu.state.bundleData.get(9006)!.fields.find((f) => f.name === 'subject')!.value).toBe(
			'Welcome aboard',
		);
	});

	it('422 for a missing or empty data object', async () => {
		expect((await call(emu, 'PUT', '/bundle/data/9006', { body: {} })).status).toBe(422);
		expect((await call(emu, 'PUT', '/bundle/data/9006', { body: { data: {} } })).status).toBe(422);
		expect((await call(emu, 'PUT', '/bundle/data/9006', { body: { data: ['x'] } })).status).toBe(
			422,
		);
	});

	it("404 for unknown or another user's step", async () => {
		expect(
			(await call(emu, 'PUT', '/bundle/data/1', { body: { data: { subject: 'x' } } })).status,
		).toBe(404);
		expect(
			(await call(emu, 'PUT', '/bundle/data/9007', { body: { data: { sheetName: 'x' } } })).status,
		).toBe(404);
	});
});
