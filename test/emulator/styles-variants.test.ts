/** Error styles and response variants the node must tolerate. */
import { startEmulator, type Emulator } from '../../emulator';
import { call, auth, raw } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const badInstall = () =>
	call(emu, 'POST', '/solution/101/installation', { body: { templateIds: [1011] } });
const activePut = () => call(emu, 'PUT', '/bundle/data/9001', { body: { data: { subject: 'x' } } });

describe('error styles', () => {
	it("'errors' (default): {success: false, errors: [{field, message}]}", async () => {
		const res = await badInstall();
		expect(res.data).toEqual({
			success: false,
			errors: [
				{ field: 'title', message: 'is required' },
				{ field: 'credentialData', message: 'is required' },
			],
		});
		expect((await call(emu, 'GET', '/solution/installation/1')).data).toEqual({
			success: false,
			errors: [{ field: null, message: 'Installation 1 not found' }],
		});
	});

	it("'yii': 422 field errors as a bare array, everything else as {name, message, code, status}", async () => {
		emu.setErrorStyle('yii');
		expect((await badInstall()).data).toEqual([
			{ field: 'title', message: 'is required' },
			{ field: 'credentialData', message: 'is required' },
		]);
		const active = await activePut();
		expect(active.status).toBe(422);
		expect(active.data).toMatchObject({
			name: 'Unprocessable Entity',
			code: 0,
			status: 422,
			message: expect.stringContaining('pause the installation first'),
		});
		expect((await call(emu, 'GET', '/solution/installation/1')).data).toEqual({
			name: 'Not Found',
			message: 'Installation 1 not found',
			code: 0,
			status: 404,
		});
		expect((await call(emu, 'GET', '/solution/apps', { token: null })).data).toMatchObject({
			name: 'Unauthorized',
			status: 401,
		});
	});

	it("'message': {message} joining field errors", async () => {
		emu.setErrorStyle('message');
		expect((await badInstall()).data).toEqual({
			message: 'title: is required; credentialData: is required',
		});
		expect((await activePut()).data.message).toContain('pause the installation first');
	});

	it("'text': a text/plain body", async () => {
		emu.setErrorStyle('text');
		const res = await raw(emu, 'GET', '/solution/installation/1', { headers: auth(emu) });
		expect(res.status).toBe(404);
		expect(res.headers['content-type']).toMatch(/^text\/plain/);
		expect(res.text).toBe('Installation 1 not found');
	});

	it('applies to fault statuses too, and rejects unknown styles', async () => {
		emu.setErrorStyle('yii');
		emu.faults.add({ path: '/solution/apps', status: 503 });
		expect((await call(emu, 'GET', '/solution/apps')).data).toMatchObject({
			name: 'Service Unavailable',
			status: 503,
		});
		expect(() => emu.setErrorStyle('html' as never)).toThrow(/unknown error style/);
		emu.reset();
		expect((await call(emu, 'GET', '/solution/installation/1')).data.success).toBe(false);
	});
});

describe('variants', () => {
	it('bare: no envelope on any success', async () => {
		emu.setVariants({ bare: true });
		expect((await call(emu, 'GET', '/solution/apps')).data[0].id).toBe(101);
		expect((await call(emu, 'PAUSE', '/solution/installation/5001')).data).toMatchObject({
			id: 5001,
			status: 0,
		});
		expect(
			(await call(emu, 'PUT', '/bundle/data/9002', { body: { data: { subject: 'x' } } })).data,
		).toEqual({ id: 9002 });
	});

	it('stringIds: every integer id as a numeric string', async () => {
		emu.setVariants({ stringIds: true });
		const inst = (
			await call(emu, 'GET', '/solution/installation/5001?expand=app.templates,bundles.steps')
		).data.data;
		expect(inst).toMatchObject({ id: '5001', appId: '101', solutionId: '101', status: 1 });
		expect(inst.bundles['7001']).toMatchObject({
			id: '7001',
			templateId: '1011',
			steps: [{ id: '9001' }, { id: '9002' }],
		});
		expect(inst.app.templates[0]).toMatchObject({ id: '1011', parentAutomation: { id: '3011' } });
		const records = (await call(emu, 'GET', '/bundle/data?filter[bundleId]=7001')).data.data;
		expect(records[0]).toMatchObject({ id: '9001', bundleId: '7001' });
		expect(records[0].data[1].value).toBe(40); // field values are not ids
	});

	it('plainValues: credentialist values as plain strings', async () => {
		emu.setVariants({ plainValues: true });
		const steps = (
			await call(emu, 'GET', '/solution/101/credentialists?credentialData[crm]=hubspot')
		).data.data;
		expect(steps[0].values).toEqual(['hubspot', 'pipedrive']);
		expect(steps[0].nested[0].values).toEqual(['sales', 'support']);
	});

	it('listWithoutStatus: installation list items carry only id and title', async () => {
		emu.setVariants({ listWithoutStatus: true });
		expect((await call(emu, 'GET', '/solution/installation')).data.data).toEqual([
			{ id: 5001, title: 'Leads for ACME' },
			{ id: 5002, title: 'Leads for Globex' },
		]);
	});

	it('statusShape string and detailWithoutStatus: status as "1"/"0", and a detail without it', async () => {
		emu.setVariants({ statusShape: 'string' });
		expect(
			(await call(emu, 'GET', '/solution/installation')).data.data.map(
				(i: { status: unknown }) => i.status,
			),
		).toEqual(['1', '0']);
		expect((await call(emu, 'PAUSE', '/solution/installation/5001')).data.data.status).toBe('0');
		emu.setVariants({ statusShape: 'number', detailWithoutStatus: true });
		expect((await call(emu, 'GET', '/solution/installation/5001')).data.data).not.toHaveProperty(
			'status',
		);
		expect((await call(emu, 'PLAY', '/solution/installation/5001')).data.data.status).toBe(1);
	});

	it('wrapLists: list bodies inside {items}, also combined with bare', async () => {
		emu.setVariants({ wrapLists: true });
		for (const path of [
			'/solution/apps',
			'/solution/101/templates',
			'/solution/101/credentialists',
			'/solution/installation',
			'/bundle/data?filter[bundleId]=7001',
		]) {
			const res = await call(emu, 'GET', path);
			expect([path, Array.isArray(res.data.data.items)]).toEqual([path, true]);
		}
		expect((await call(emu, 'GET', '/solution/installation/5001')).data.data.id).toBe(5001);
		emu.setVariants({ bare: true });
		expect((await call(emu, 'GET', '/solution/apps')).data.items).toHaveLength(4);
	});

	it('rejects unknown variants; reset() restores the defaults', async () => {
		expect(() => emu.setVariants({ nope: true } as never)).toThrow(/unknown variant/);
		emu.setVariants({ bare: true, stringIds: true });
		emu.reset();
		expect((await call(emu, 'GET', '/solution/apps')).data.data[0].id).toBe(101);
	});
});
