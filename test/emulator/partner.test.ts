/**
 * The /wl partner endpoints: master token in both Basic styles, run-time end users, variants,
 * faults.
 */
import { startEmulator, type Emulator } from '../../emulator';
import { call } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0, partner: { sessionTokenSeconds: 120 } });
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const raw = () => `Basic ${emu.partner.masterToken}`;
const usernamePassword = () =>
	`Basic ${Buffer.from(`${emu.partner.masterToken}:`).toString('base64')}`;
const wl = (
	endpoint: string,
	body: unknown,
	authorization: string | null = raw(),
	partner = emu.partner.name,
) =>
	call(emu, 'POST', `/wl/${partner}/${endpoint}`, {
		body,
		token: null,
		headers: authorization ? { Authorization: authorization } : {},
	});

describe('master token', () => {
	it('accepts both Basic styles by default', async () => {
		expect((await wl('add-user', { id: 'a' }, raw())).status).toBe(200);
		expect((await wl('add-user', { id: 'b' }, usernamePassword())).status).toBe(200);
	});

	it('a setting accepts only one style', async () => {
		emu.partner.set({ acceptStyles: 'raw' });
		expect((await wl('add-user', { id: 'a' }, usernamePassword())).status).toBe(401);
		expect((await wl('add-user', { id: 'a' }, raw())).status).toBe(200);
		emu.partner.set({ acceptStyles: 'usernamePassword' });
		const refused = await wl('get-user-session-token', { id: 'a' }, raw());
		expect([refused.status, refused.data.errors[0].message]).toEqual([
			401,
			'This partner accepts the master token only as "Basic base64(<token>:)"',
		]);
	});

	it('missing, wrong, Bearer or another partner: 401 / 403, and nothing is created', async () => {
		expect((await wl('add-user', { id: 'a' }, null)).status).toBe(401);
		expect((await wl('add-user', { id: 'a' }, 'Basic wrong')).status).toBe(401);
		expect((await wl('add-user', { id: 'a' }, `Bearer ${emu.token()}`)).status).toBe(401);
		expect((await wl('add-user', { id: 'a' }, raw(), 'other-partner')).status).toBe(403);
		expect(emu.state.endUsers.size).toBe(0);
	});

	it('an end-user token cannot be used on /wl, the master token not on end-user endpoints', async () => {
		const asMaster = await call(emu, 'GET', '/solution/apps', {
			token: null,
			headers: { Authorization: raw() },
		});
		expect(asMaster.status).toBe(401);
	});
});

describe('end users created at run time', () => {
	it('add-user validates, refuses duplicates, and answers id, email and tokens', async () => {
		expect((await wl('add-user', {})).status).toBe(400);
		expect((await wl('add-user', { id: 'a', timezoneOffset: 'x' })).status).toBe(400);
		const created = await wl('add-user', { id: 'a', timezoneOffset: -180, language: 'en' });
		expect(created.data.data).toEqual({
			id: 70001,
			email: 'wl-70001@acme-saas.users.emulator',
			planId: 1,
			trxLimit: 1000,
			permanentToken: expect.stringMatching(/^perm_[0-9a-f]{32}$/),
			sessionToken: expect.stringMatching(/^eyJ/),
			sessionTokenValidUntil: expect.any(Number),
		});
		expect(created.data.data.sessionTokenValidUntil - Date.now() / 1000).toBeGreaterThan(100);
		expect((await wl('add-user', { id: 'a' })).status).toBe(400);
	});

	it('each has their own installations, with the session token and with the permanent token', async () => {
		const a = (await wl('add-user', { id: 'a' })).data.data;
		const b = (await wl('add-user', { id: 'b' })).data.data;
		const body = {
			title: 'A',
			templateIds: [1011],
			credentialData: {
				crm: 'hubspot',
				hubspotPipeline: 'sales',
				hubspotStage: 'new',
				mailer: 'mailchimp',
			},
		};
		const installed = await call(emu, 'POST', '/solution/101/installation', {
			body,
			token: a.sessionToken,
		});
		expect(installed.status).toBe(201);
		const listOf = async (token: string) =>
			(await call(emu, 'GET', '/solution/installation', { token })).data.data.map(
				(i: { id: number }) => i.id,
			);
		expect(await listOf(a.permanentToken)).toEqual([installed.data.data.id]);
		expect(await listOf(b.sessionToken)).toEqual([]);
		expect(await listOf(emu.token())).not.toContain(installed.data.data.id); // the fixtures' user-1
		expect(emu.state.installations.get(installed.data.data.id)?.userId).toBe('acme-saas:a');
	});

	it('get-user-session-token by id or e-mail; unknown users 404', async () => {
		const a = (await wl('add-user', { id: 'a' })).data.data;
		expect(Object.keys((await wl('get-user-session-token', { id: 'a' })).data.data).sort()).toEqual(
			['permanentToken', 'sessionToken', 'sessionTokenValidUntil'],
		);
		expect((await wl('get-user-session-token', { email: a.email })).status).toBe(200);
		expect((await wl('get-user-session-token', { id: 'zz' })).status).toBe(404);
		expect((await wl('get-user-session-token', {})).status).toBe(400);
	});

	it('mints session tokens on the emulator clock, and a token minted before a jump still works', async () => {
		await wl('add-user', { id: 'a' });
		const before = (await wl('get-user-session-token', { id: 'a' })).data.data;
		const weekAhead = Date.now() + 7 * 86_400_000;
		emu.clock.set(weekAhead);
		const after = (await wl('get-user-session-token', { id: 'a' })).data.data;
		const lifetime = emu.partner.settings().sessionTokenSeconds;
		expect(after.sessionTokenValidUntil - weekAhead / 1000).toBeGreaterThan(lifetime - 5);
		expect(after.sessionTokenValidUntil - weekAhead / 1000).toBeLessThanOrEqual(lifetime);
		const list = async (token: string) =>
			(await call(emu, 'GET', '/solution/installation', { token })).status;
		expect(await list(before.sessionToken)).toBe(200);
		expect(await list(after.sessionToken)).toBe(200);
	});

	it('reset forgets them and their permanent tokens', async () => {
		const a = (await wl('add-user', { id: 'a' })).data.data;
		emu.reset();
		expect(
			(await call(emu, 'GET', '/solution/installation', { token: a.permanentToken })).status,
		).toBe(401);
		expect((await wl('get-user-session-token', { id: 'a' })).status).toBe(404);
	});
});

describe('variants and settings', () => {
	it.each([
		['session', ['sessionToken', 'sessionTokenValidUntil']],
		['permanent', ['permanentToken']],
		['token', ['token']],
		['both', ['permanentToken', 'sessionToken', 'sessionTokenValidUntil']],
	] as const)('partnerTokens %s', async (variant, keys) => {
		emu.setVariants({ partnerTokens: variant });
		await wl('add-user', { id: 'a' });
		expect(Object.keys((await wl('get-user-session-token', { id: 'a' })).data.data).sort()).toEqual(
			[...keys],
		);
	});

	it('a short session lifetime gives tokens the service refuses once expired', async () => {
		emu.partner.set({ sessionTokenSeconds: -1 });
		const { sessionToken } = (await wl('add-user', { id: 'a' })).data.data;
		const refused = await call(emu, 'GET', '/solution/installation', { token: sessionToken });
		expect(refused.status).toBe(401);
		expect(refused.data.errors[0].message).toMatch(/Token expired/);
	});

	it('bare bodies and faults apply to /wl as everywhere', async () => {
		emu.setVariants({ bare: true });
		expect((await wl('add-user', { id: 'a' })).data.email).toBeDefined();
		emu.faults.add({ path: /^\/wl\//, status: 503 });
		expect((await wl('get-user-session-token', { id: 'a' })).status).toBe(503);
		expect(emu.requests.at(-1)).toMatchObject({
			path: '/wl/acme-saas/get-user-session-token',
			fault: 'status:503',
		});
	});

	it('the control surface reads and changes the partner settings', async () => {
		const control = async (method: string, body?: unknown): Promise<Record<string, unknown>> =>
			(await (
				await fetch(`${emu.baseUrl}/__emulator/partner`, {
					method,
					body: body ? JSON.stringify(body) : undefined,
				})
			).json()) as Record<string, unknown>;
		expect(await control('GET')).toEqual({
			name: 'acme-saas',
			masterToken: emu.partner.masterToken,
			acceptStyles: 'any',
			sessionTokenSeconds: 120,
		});
		expect((await control('POST', { acceptStyles: 'raw' })).acceptStyles).toBe('raw');
		expect((await control('POST', { nope: 1 })).error).toMatch(/unknown partner setting/);
	});
});
