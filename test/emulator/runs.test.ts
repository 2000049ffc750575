/**
 * Run history: GET /bundle/events and /bundle/events/steps/{id}, recorded runs,
 * variants, faults.
 */
import { startEmulator, type Emulator, type RunRecord } from '../../emulator';
import { FIXTURE_RUN_IDS, RUN_STATUS } from '../../emulator/handlers/runs';
import { call } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const get = (path: string, sub = 'user-1') => call(emu, 'GET', path, { token: emu.token({ sub }) });
const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('GET /bundle/events', () => {
	it("lists the user's runs newest first, documented fields, no steps without expand", async () => {
		const res = await get('/bundle/events');
		expect(res.status).toBe(200);
		expect(res.data.success).toBe(true);
		expect(res.data.data.map((r: { id: number }) => r.id)).toEqual([
			FIXTURE_RUN_IDS.user1Bundle7003,
			FIXTURE_RUN_IDS.user1Failed,
			FIXTURE_RUN_IDS.user1Succeeded,
		]);
		const run = res.data.data[1];
		expect(run).toEqual({
			id: FIXTURE_RUN_IDS.user1Failed,
			bundleId: 7001,
			status: RUN_STATUS.failed,
			event: 6,
			dateCreated: '2024-05-01 11:00:00',
		});
	});

	it('expand=steps gives a list of lists of documented step objects', async () => {
		const res = await get(`/bundle/events?expand=steps&bundleId=7001`);
		const failed = res.data.data[0];
		expect(failed.steps).toHaveLength(2);
		expect(failed.steps.every((level: unknown[]) => Array.isArray(level))).toBe(true);
		const [[first], [last]] = failed.steps;
		expect(Object.keys(first).sort()).toEqual(
			[
				'id',
				'triggerActionId',
				'resultMessage',
				'status',
				'error',
				'hasActiveRerun',
				'dateCreated',
				'behaviourType',
				'token',
				'warning',
				'warningData',
				'stepLevel',
			].sort(),
		);
		expect(first).toMatchObject({ triggerActionId: 9001, status: 1, error: null, stepLevel: 1 });
		expect(last).toMatchObject({
			triggerActionId: 9002,
			status: RUN_STATUS.failed,
			error: 'Emulated step error',
			stepLevel: 2,
		});
		expect(first.dateCreated).toMatch(DATE);
		// "+steps" (a literal plus) expands nothing; " steps" (a + decoded as a space) does.
		expect((await get('/bundle/events?expand=%2Bsteps')).data.data[0].steps).toBeUndefined();
		expect((await get('/bundle/events?expand=app,+steps')).data.data[0].steps).toBeDefined();
	});

	it("bundleId and filter[bundleId] filter; bad values 422; another user's bundle 404", async () => {
		const ids = async (q: string) =>
			(await get(`/bundle/events?${q}`)).data.data.map((r: { bundleId: number }) => r.bundleId);
		expect(await ids('bundleId=7003')).toEqual([7003]);
		expect(await ids('filter[bundleId]=7003')).toEqual([7003]);
		expect(await ids('filter%5BbundleId%5D=7001')).toEqual([7001, 7001]);
		expect(await ids('bundleId=7002')).toEqual([]);
		expect((await get('/bundle/events?bundleId=abc')).status).toBe(422);
		expect((await get('/bundle/events?bundleId=7001&filter[bundleId]=7003')).status).toBe(422);
		expect((await get('/bundle/events?bundleId=7004')).status).toBe(404);
		expect((await get('/bundle/events?bundleId=999999')).status).toBe(404);
	});

	it('isolation: each user sees only runs of their own installations', async () => {
		const user2 = (await get('/bundle/events', 'user-2')).data.data;
		expect(user2.map((r: { id: number }) => r.id)).toEqual([FIXTURE_RUN_IDS.user2Failed]);
		expect((await get('/bundle/events', 'nobody')).data.data).toEqual([]);
		emu.removeInstallation(5001);
		expect(
			(await get('/bundle/events')).data.data.map((r: { bundleId: number }) => r.bundleId),
		).toEqual([7003]);
	});

	it('auth: missing, bad and expired tokens 401; POST 405', async () => {
		expect((await call(emu, 'GET', '/bundle/events', { token: null })).status).toBe(401);
		expect((await call(emu, 'GET', '/bundle/events', { token: 'x.y.z' })).status).toBe(401);
		const expired = emu.token({ exp: Math.floor(Date.now() / 1000) - 10 });
		expect((await call(emu, 'GET', '/bundle/events', { token: expired })).status).toBe(401);
		const master = await call(emu, 'GET', '/bundle/events', {
			token: null,
			headers: { Authorization: `Basic ${emu.partner.masterToken}` },
		});
		expect(master.status).toBe(401);
		expect((await call(emu, 'POST', '/bundle/events', { body: {} })).status).toBe(405);
	});

	it('pages like every list (pagination variant), runs spread over pages', async () => {
		for (let i = 0; i < 5; i++)
			emu.recordRun({ bundleId: 7002, dateCreated: `2024-06-0${i + 1} 08:00:00` });
		emu.setVariants({ pagination: 'headers' });
		const first = await get('/bundle/events?bundleId=7002&per-page=2');
		expect(first.headers['x-pagination-total-count']).toBe('5');
		expect(first.headers['x-pagination-page-count']).toBe('3');
		expect(first.data.data.map((r: { dateCreated: string }) => r.dateCreated)).toEqual([
			'2024-06-05 08:00:00',
			'2024-06-04 08:00:00',
		]);
		const last = await get('/bundle/events?bundleId=7002&per-page=2&page=3');
		expect(last.data.data).toHaveLength(1);
		emu.setVariants({ pagination: 'body' });
		const body = (await get('/bundle/events?expand=steps&bundleId=7002&per-page=2&page=2')).data
			.data;
		expect(body._meta).toEqual({ totalCount: 5, pageCount: 3, currentPage: 2, perPage: 2 });
		expect(body._links.next.href).toContain('expand=steps');
		expect(body.items[0].steps).toHaveLength(2);
		emu.setVariants({ pagination: 'link' });
		expect((await get('/bundle/events?bundleId=7002&per-page=2')).headers.link).toContain(
			'rel=next',
		);
	});
});

describe('GET /bundle/events/steps/{id}', () => {
	it("one step with eventId, bundleId and its detail; others' and unknown steps 404", async () => {
		const run = (await get('/bundle/events?expand=steps&bundleId=7001')).data.data[0];
		const stepId = run.steps[1][0].id;
		const res = await get(`/bundle/events/steps/${stepId}`);
		expect(res.status).toBe(200);
		expect(res.data.data).toMatchObject({
			id: stepId,
			eventId: run.id,
			bundleId: 7001,
			status: RUN_STATUS.failed,
			error: 'Emulated step error',
			stepLevel: 2,
			requestData: expect.any(Object),
			responseData: expect.any(Object),
		});
		expect((await get(`/bundle/events/steps/${stepId}`, 'user-2')).status).toBe(404);
		expect((await get('/bundle/events/steps/1')).status).toBe(404);
		expect((await get('/bundle/events/steps/abc')).status).toBe(404);
	});
});

describe('recording runs', () => {
	it('programmatic: outcome, in progress, explicit steps, date forms, detail', async () => {
		const progress = emu.recordRun({
			bundleId: 7002,
			outcome: 'inProgress',
			dateCreated: '2024-07-01T10:00:00Z',
		});
		expect(progress.status).toBe(RUN_STATUS.inProgress);
		expect(progress.steps.flat().map((s) => s.status)).toEqual([1, RUN_STATUS.inProgress]);
		const custom: RunRecord = emu.recordRun({
			bundleId: 7002,
			event: 3,
			dateCreated: new Date(Date.UTC(2024, 6, 2, 5, 6, 7)),
			steps: [
				[{ resultMessage: 'trigger' }],
				[{ status: 'succeeded' }, { status: 'failed', error: 'Boom', detail: { raw: 1 } }],
			],
		});
		expect(custom.status).toBe(RUN_STATUS.failed);
		const listed = (await get('/bundle/events?expand=steps&bundleId=7002')).data.data;
		expect(listed[0]).toMatchObject({
			id: custom.id,
			event: 3,
			dateCreated: '2024-07-02 05:06:07',
		});
		expect(listed[0].steps.map((l: unknown[]) => l.length)).toEqual([1, 2]);
		expect(listed[0].steps[1][1]).toMatchObject({ error: 'Boom', stepLevel: 2 });
		const detail = await get(`/bundle/events/steps/${custom.steps[1][1].id}`);
		expect(detail.data.data.raw).toBe(1);
		expect(listed[1]).toMatchObject({
			id: progress.id,
			status: 0,
			dateCreated: '2024-07-01 10:00:00',
		});
		expect(() => emu.recordRun({ bundleId: 1 })).toThrow('unknown bundle 1');
		expect(() => emu.recordRun({ bundleId: 7002, dateCreated: 'soon' })).toThrow('date');
		expect(() => emu.recordRun({ bundleId: 7002, id: custom.id })).toThrow('already exists');
		expect(emu.runs()).toHaveLength(6);
	});

	it('over HTTP: POST /__emulator/runs → 201, GET lists them, reset drops them', async () => {
		const res = await call(emu, 'POST', '/__emulator/runs', {
			token: null,
			body: { bundleId: 7003, outcome: 'failed', dateCreated: '2024-08-01 00:00:01' },
		});
		expect(res.status).toBe(201);
		expect(res.data).toMatchObject({ bundleId: 7003, status: RUN_STATUS.failed });
		expect(
			(await call(emu, 'POST', '/__emulator/runs', { token: null, body: { bundleId: 5 } })).status,
		).toBe(400);
		expect((await call(emu, 'GET', '/__emulator/runs', { token: null })).data).toHaveLength(5);
		expect(emu.requests.some((r) => r.path.startsWith('/__emulator'))).toBe(false);
		emu.reset();
		expect(emu.runs()).toHaveLength(4);
	});
});

describe('variants', () => {
	it('runSteps flat: one list of steps with their stepLevel', async () => {
		emu.setVariants({ runSteps: 'flat' });
		const run = (await get('/bundle/events?expand=steps&bundleId=7001')).data.data[0];
		expect(run.steps.map((s: { stepLevel: number }) => s.stepLevel)).toEqual([1, 2]);
	});

	it("runDates: utc, iso and the end user's offset", async () => {
		emu.setVariants({ runDates: 'iso' });
		expect((await get('/bundle/events?bundleId=7003')).data.data[0].dateCreated).toBe(
			'2024-05-02T09:30:00+00:00',
		);
		// A /wl end user with timezoneOffset -180 (UTC-3) sees local dates under 'userOffset'.
		const added = await call(emu, 'POST', `/wl/${emu.partner.name}/add-user`, {
			token: null,
			headers: { Authorization: `Basic ${emu.partner.masterToken}` },
			body: { id: 'tz', timezoneOffset: -180 },
		});
		const sub = `${emu.partner.name}:tz`;
		emu.state.installations.get(5002)!.userId = sub;
		emu.setVariants({ runDates: 'userOffset' });
		const token = added.data.data.sessionToken as string;
		const run = (await call(emu, 'GET', '/bundle/events?expand=steps', { token })).data.data[0];
		expect(run.dateCreated).toBe('2024-05-02 06:30:00');
		expect(run.steps[0][0].dateCreated).toBe('2024-05-02 06:30:00');
		emu.setVariants({ runDates: 'utc' });
		expect((await call(emu, 'GET', '/bundle/events', { token })).data.data[0].dateCreated).toBe(
			'2024-05-02 09:30:00',
		);
	});

	it('bare, stringIds, wrapLists, listShape map, successFlag apply', async () => {
		emu.setVariants({ bare: true, stringIds: true });
		const bare = (await get('/bundle/events?expand=steps&bundleId=7003')).data;
		expect(bare[0]).toMatchObject({
			id: String(FIXTURE_RUN_IDS.user1Bundle7003),
			bundleId: '7003',
		});
		expect(typeof bare[0].steps[0][0].triggerActionId).toBe('string');
		emu.reset();
		emu.setVariants({ wrapLists: true });
		expect((await get('/bundle/events')).data.data.items).toHaveLength(3);
		emu.setVariants({ wrapLists: false, listShape: 'map', successFlag: 'number' });
		const map = (await get('/bundle/events')).data;
		expect(map.success).toBe(1);
		expect(Object.keys(map.data)).toContain(String(FIXTURE_RUN_IDS.user1Failed));
	});

	it('refuses unknown variant values', () => {
		expect(() => emu.setVariants({ runSteps: 'tree' as never })).toThrow('cannot be');
	});
});

describe('faults and error styles', () => {
	it('status, successFalse, malformed JSON and resets match GET /bundle/events', async () => {
		emu.faults.add({ method: 'GET', path: '/bundle/events', status: 503 });
		expect((await get('/bundle/events')).status).toBe(503);
		emu.faults.add({ method: 'GET', path: '/bundle/events', successFalse: true });
		expect((await get('/bundle/events')).data.success).toBe(false);
		emu.faults.add({
			method: 'GET',
			path: '/bundle/events',
			query: /(^|&)page=2(&|$)/,
			status: 500,
		});
		emu.setVariants({ pagination: 'headers' });
		expect((await get('/bundle/events?page=1')).status).toBe(200);
		expect((await get('/bundle/events?page=2')).status).toBe(500);
		emu.faults.add({ method: 'GET', path: /^\/bundle\/events\/steps\//, malformedJson: true });
		const cut = await get('/bundle/events/steps/3944029301');
		expect(typeof cut.data).toBe('string');
		emu.faults.add({ path: '/bundle/events', reset: 'before' });
		await expect(get('/bundle/events')).rejects.toThrow();
		expect(emu.requests.at(-1)!.fault).toBe('reset:before');
	});

	it('errors in each style (yii 422 as a bare list)', async () => {
		emu.setErrorStyle('yii');
		const bad = await get('/bundle/events?bundleId=x');
		expect(bad.data).toEqual([{ field: 'bundleId', message: 'bundleId must be an integer' }]);
		emu.setErrorStyle('message');
		expect((await get('/bundle/events/steps/1')).data.message).toMatch(/not found/);
	});
});
