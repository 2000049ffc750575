/**
 * End-user lifecycle: /wl get-user-profile, set-user-plan, delete-user with the master
 * token.
 */
import { startEmulator, type Emulator } from '../../emulator';
import { PLANS } from '../../emulator/fixtures';
import { call } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const basic = () => `Basic ${emu.partner.masterToken}`;
const wl = (
	endpoint: string,
	body: unknown,
	authorization: string | null = basic(),
	partner = emu.partner.name,
) =>
	call(emu, 'POST', `/wl/${partner}/${endpoint}`, {
		body,
		token: null,
		headers: authorization ? { Authorization: authorization } : {},
	});
const addUser = async (id: string, extra: Record<string, unknown> = {}) =>
	(await wl('add-user', { id, ...extra })).data.data as {
		id: number;
		email: string;
		sessionToken: string;
		permanentToken: string;
	};

describe('get-user-profile', () => {
	it('answers the documented fields, with the plan and transactions left', async () => {
		const added = await addUser('john', { language: 'pt', timezoneOffset: -180 });
		const res = await wl('get-user-profile', { id: 'john' });
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			success: true,
			data: {
				id: added.id,
				email: added.email,
				language: 'pt',
				timezoneOffset: -180,
				planId: 1,
				trxLimit: 1000,
			},
		});
		// Numeric ids are the same user as their text.
		await addUser('42');
		expect((await wl('get-user-profile', { id: 42 })).status).toBe(200);
	});

	it('?expand=transactions adds {limit, used, left}; recorded runs and the control call count usage', async () => {
		const added = await addUser('u');
		const sub = `${emu.partner.name}:u`;
		emu.state.installations.get(5002)!.userId = sub;
		emu.recordRun({ bundleId: 7003 });
		emu.recordRun({ bundleId: 7003, outcome: 'failed' });
		let profile = (await wl('get-user-profile?expand=transactions', { id: 'u' })).data.data;
		expect(profile).toMatchObject({
			id: added.id,
			trxLimit: 998,
			transactions: { limit: 1000, used: 2, left: 998 },
		});
		emu.setTransactionsUsed('u', 1500);
		profile = (await wl('get-user-profile?expand=transactions', { id: 'u' })).data.data;
		expect(profile.transactions).toEqual({ limit: 1000, used: 1500, left: 0 });
		expect(profile.trxLimit).toBe(0);
		expect(
			(
				await call(emu, 'POST', '/__emulator/end-users/transactions', {
					token: null,
					body: { id: 'u', used: 5 },
				})
			).status,
		).toBe(200);
		expect((await wl('get-user-profile', { id: 'u' })).data.data).not.toHaveProperty(
			'transactions',
		);
		expect((await wl('get-user-profile', { id: 'u' })).data.data.trxLimit).toBe(995);
	});

	it('validation 400, unknown user 404', async () => {
		expect((await wl('get-user-profile', {})).status).toBe(400);
		expect((await wl('get-user-profile', { id: '  ' })).status).toBe(400);
		const missing = await wl('get-user-profile', { id: 'ghost' });
		expect([missing.status, missing.data.errors[0].message]).toEqual([
			404,
			'End user with id "ghost" not found',
		]);
	});
});

describe('set-user-plan', () => {
	it('sets a plan: {success: true, data: []}; the profile shows it', async () => {
		await addUser('p');
		const res = await wl('set-user-plan', { id: 'p', planId: 23 });
		expect(res.data).toEqual({ success: true, data: [] });
		const plan = PLANS.find((x) => x.id === 23)!;
		expect((await wl('get-user-profile', { id: 'p' })).data.data).toMatchObject({
			planId: 23,
			trxLimit: plan.trxLimit,
		});
	});

	it('validation: planId required, an integer, a known plan (400); unknown user 404', async () => {
		await addUser('p');
		const fields = async (body: unknown) =>
			(await wl('set-user-plan', body)).data.errors.map((e: { field: string }) => e.field);
		expect(await fields({})).toEqual(['id', 'planId']);
		expect(await fields({ id: 'p', planId: '23' })).toEqual(['planId']);
		expect(await fields({ id: 'p', planId: 999 })).toEqual(['planId']);
		expect((await wl('set-user-plan', { id: 'ghost', planId: 23 })).status).toBe(404);
	});
});

describe('delete-user', () => {
	it('removes the user, their installations and credentials; their tokens answer 401', async () => {
		const added = await addUser('gone');
		const sub = `${emu.partner.name}:gone`;
		const session = added.sessionToken;
		const jwt = emu.token({ sub });
		emu.state.installations.get(5002)!.userId = sub;
		expect(
			(await call(emu, 'GET', '/solution/installation', { token: session })).data.data,
		).toHaveLength(1);
		const res = await wl('delete-user', { id: 'gone' });
		expect(res.data).toEqual({ success: true, data: [] });
		expect(emu.state.installations.has(5002)).toBe(false);
		expect(emu.state.bundles.has(7003)).toBe(false);
		for (const token of [session, added.permanentToken, jwt]) {
			const after = await call(emu, 'GET', '/solution/installation', { token });
			expect(after.status).toBe(401);
		}
		expect((await call(emu, 'GET', '/bundle/events', { token: session })).status).toBe(401);
		expect((await wl('get-user-profile', { id: 'gone' })).status).toBe(404);
		expect((await wl('delete-user', { id: 'gone' })).status).toBe(404);
		expect((await wl('get-user-session-token', { id: 'gone' })).status).toBe(404);
		// Other users are untouched.
		expect((await call(emu, 'GET', '/solution/installation')).data.data).toHaveLength(1);
		// Adding the id again makes a new user (with nothing of the old one).
		const again = await addUser('gone');
		const fresh = await call(emu, 'GET', '/solution/installation', { token: again.sessionToken });
		expect([fresh.status, fresh.data.data]).toEqual([200, []]);
		emu.reset();
		expect(emu.state.installations.has(5002)).toBe(true);
	});

	it('unknown user 404; missing id 400', async () => {
		expect((await wl('delete-user', { id: 'nobody' })).status).toBe(404);
		expect((await wl('delete-user', {})).status).toBe(400);
	});
});

describe('auth, variants, faults', () => {
	it.each(['get-user-profile', 'set-user-plan', 'delete-user'])(
		'%s: master token as for add-user',
		async (endpoint) => {
			await addUser('a');
			const body = { id: 'a', planId: 23 };
			expect((await wl(endpoint, body, null)).status).toBe(401);
			expect((await wl(endpoint, body, 'Basic wrong')).status).toBe(401);
			expect((await wl(endpoint, body, `Bearer ${emu.token()}`)).status).toBe(401);
			expect((await wl(endpoint, body, basic(), 'other-partner')).status).toBe(403);
			expect(
				(await call(emu, 'GET', `/wl/${emu.partner.name}/${endpoint}`, { token: null })).status,
			).toBe(405);
			const usernamePassword = `Basic ${Buffer.from(`${emu.partner.masterToken}:`).toString('base64')}`;
			expect((await wl(endpoint, body, usernamePassword)).status).toBe(200);
		},
	);

	it('profileShape basic drops planId/trxLimit; profileTransactions none ignores expand; bare and stringIds', async () => {
		const added = await addUser('v');
		emu.setVariants({ profileShape: 'basic', profileTransactions: 'none' });
		expect((await wl('get-user-profile?expand=transactions', { id: 'v' })).data.data).toEqual({
			id: added.id,
			email: added.email,
			language: 'en',
			timezoneOffset: 0,
		});
		emu.setVariants({ bare: true, stringIds: true, profileShape: 'billing' });
		expect((await wl('get-user-profile', { id: 'v' })).data).toMatchObject({
			id: String(added.id),
			planId: '1',
		});
		expect((await wl('set-user-plan', { id: 'v', planId: 24 })).data).toEqual([]);
		emu.setVariants({ bare: false, successFlag: 'string' });
		expect((await wl('delete-user', { id: 'v' })).data).toEqual({ success: 'true', data: [] });
	});

	it('faults apply by method and path: a reset after delete-user still deletes', async () => {
		await addUser('f');
		const path = `/wl/${emu.partner.name}/delete-user`;
		emu.faults.add({ method: 'POST', path, status: 502 });
		expect((await wl('delete-user', { id: 'f' })).status).toBe(502);
		expect((await wl('get-user-profile', { id: 'f' })).status).toBe(200);
		emu.faults.add({ method: 'POST', path, reset: 'after' });
		await expect(wl('delete-user', { id: 'f' })).rejects.toThrow();
		expect((await wl('get-user-profile', { id: 'f' })).status).toBe(404);
		emu.faults.add({
			method: 'POST',
			path: `/wl/${emu.partner.name}/get-user-profile`,
			successFalse: true,
		});
		await addUser('g');
		expect((await wl('get-user-profile', { id: 'g' })).data.success).toBe(false);
	});

	it('error styles: yii gives {name, message, code, status} for a 404', async () => {
		emu.setErrorStyle('yii');
		const res = await wl('delete-user', { id: 'nobody' });
		expect(res.data).toMatchObject({ name: 'Not Found', status: 404 });
	});
});
