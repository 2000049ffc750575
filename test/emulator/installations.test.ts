/** Endpoints 5–8 and cross-user isolation. */
import { startEmulator, type Emulator } from '../../emulator';
import { FIXTURE_IDS } from '../../emulator/fixtures';
import { call } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const user2 = () => emu.token({ sub: 'user-2' });

describe('GET /solution/installation', () => {
	it("lists only the caller's installations, each with id, title and status", async () => {
		const res = await call(emu, 'GET', '/solution/installation');
		expect(res.status).toBe(200);
		expect(res.data.data.map((i: { id: number }) => i.id)).toEqual([5001, 5002]);
		expect(res.data.data[0]).toMatchObject({
			id: 5001,
			appId: 101,
			title: 'Leads for ACME',
			status: 1,
		});
		const other = await call(emu, 'GET', '/solution/installation', { token: user2() });
		expect(other.data.data.map((i: { id: number }) => i.id)).toEqual([
			FIXTURE_IDS.otherUserInstallation,
		]);
		const nobody = await call(emu, 'GET', '/solution/installation', {
			token: emu.token({ sub: 'user-3' }),
		});
		expect(nobody.data.data).toEqual([]);
	});
});

describe('GET /solution/installation/{id}', () => {
	it('has no bundles without expand', async () => {
		const res = await call(emu, 'GET', '/solution/installation/5001');
		expect(res.status).toBe(200);
		expect(res.data.data).toMatchObject({ id: 5001, appId: 101, status: 1 });
		expect(res.data.data.bundles).toBeUndefined();
		expect(res.data.data.app).toBeUndefined();
	});

	it('expands app.templates and bundles.steps (the + decodes to a space and is trimmed)', async () => {
		const res = await call(
			emu,
			'GET',
			'/solution/installation/5001?expand=app.templates,+bundles.steps',
		);
		const data = res.data.data;
		expect(data.app).toMatchObject({ id: 101, title: 'CRM Leads to Mailer' });
		expect(data.app.templates.map((t: { id: number }) => t.id)).toEqual([1011, 1012]);
		expect(Object.keys(data.bundles)).toEqual(['7001', '7002']);
		expect(data.bundles['7001']).toMatchObject({
			id: 7001,
			title: expect.any(String),
			steps: [
				{ id: 9001, title: expect.any(String) },
				{ id: 9002, title: expect.any(String) },
			],
		});
	});

	it('expands nothing for a literal plus (%2B) and ignores unknown names', async () => {
		const res = await call(
			emu,
			'GET',
			'/solution/installation/5001?expand=%2Bbundles.steps,nonsense',
		);
		expect(res.data.data.bundles).toBeUndefined();
		const encodedComma = await call(
			emu,
			'GET',
			'/solution/installation/5001?expand=app.templates%2C%20bundles.steps',
		);
		expect(encodedComma.data.data.bundles['7002'].steps).toHaveLength(2);
	});

	it('expands bundles without steps, and app without templates', async () => {
		const res = await call(emu, 'GET', '/solution/installation/5001?expand=bundles,app');
		expect(res.data.data.bundles['7001'].steps).toBeUndefined();
		expect(res.data.data.app.templates).toBeUndefined();
	});

	it("404s for unknown ids and for another user's installation", async () => {
		expect((await call(emu, 'GET', '/solution/installation/4242')).status).toBe(404);
		expect((await call(emu, 'GET', '/solution/installation/5003')).status).toBe(404);
		expect((await call(emu, 'GET', '/solution/installation/5003', { token: user2() })).status).toBe(
			200,
		);
		expect((await call(emu, 'GET', '/solution/installation/abc')).status).toBe(404);
	});

	it('404s once an installation was removed elsewhere', async () => {
		emu.removeInstallation(5002);
		expect((await call(emu, 'GET', '/solution/installation/5002')).status).toBe(404);
		expect((await call(emu, 'GET', '/bundle/data?filter[bundleId]=7003')).status).toBe(404);
		expect(emu.state.bundleData.has(9005)).toBe(false);
	});
});

describe('PLAY and PAUSE /solution/installation/{id}', () => {
	it('switch the status and return the installation', async () => {
		const paused = await call(emu, 'PAUSE', '/solution/installation/5001');
		expect(paused.status).toBe(200);
		expect(paused.data.data).toMatchObject({ id: 5001, appId: 101, status: 0 });
		expect(emu.state.installations.get(5001)!.status).toBe(0);
		const again = await call(emu, 'PAUSE', '/solution/installation/5001');
		expect(again.data.data.status).toBe(0);
		const played = await call(emu, 'PLAY', '/solution/installation/5001');
		expect(played.data.data.status).toBe(1);
		expect((await call(emu, 'GET', '/solution/installation/5001')).data.data.status).toBe(1);
	});

	it("404 for unknown or another user's installation, nothing changed", async () => {
		expect((await call(emu, 'PLAY', '/solution/installation/4242')).status).toBe(404);
		expect((await call(emu, 'PLAY', '/solution/installation/5003')).status).toBe(404);
		expect(emu.state.installations.get(5003)!.status).toBe(0);
	});

	it('405 for a known path with another method, with Allow', async () => {
		const res = await call(emu, 'DELETE', '/solution/installation/5001');
		expect(res.status).toBe(405);
		expect(res.headers.allow).toBe('GET, PLAY, PAUSE');
		expect((await call(emu, 'PLAY', '/solution/apps')).status).toBe(405);
		expect((await call(emu, 'STOP', '/solution/installation/5001')).status).toBe(405);
		expect((await call(emu, 'POST', '/solution/apps')).status).toBe(405);
	});

	it('404 for unknown paths', async () => {
		const res = await call(emu, 'GET', '/solution/unknown');
		expect(res.status).toBe(404);
		expect((await call(emu, 'GET', '/solution/apps/')).status).toBe(404);
	});
});
