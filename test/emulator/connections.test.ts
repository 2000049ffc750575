/** Connection by link, update-user-data and the partner's own connection. */
import axios from 'axios';

import { LINK_LIFETIME_MS, startEmulator, type Emulator } from '../../emulator';
import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { call } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const SHARING = '/credentials/grant-access-sharing';
const createLink = (body: unknown = { partnerId: 201, title: 'CRM of ACME' }, token?: string) =>
	call(emu, 'POST', SHARING, { body, token });
const control = (method: string, path: string, data?: unknown) =>
	axios.request({
		url: `${emu.baseUrl}/__emulator${path}`,
		method,
		data,
		validateStatus: () => true,
	});
const master = () => `Bearer ${emu.partner.masterToken}`;
const wl = (endpoint: string, body?: unknown, method = 'POST', token?: string | null) =>
	call(emu, method, `/wl/${emu.partner.name}/${endpoint}`, { body, token });

describe('connection by link', () => {
	it('creates a waiting sharing with a token, as the docs show', async () => {
		const res = await createLink();
		expect(res.status).toBe(201);
		expect(res.data.success).toBe(true);
		const link = res.data.data;
		expect(link).toEqual({
			id: 301,
			partnerId: 201,
			token: expect.stringMatching(/^[A-Za-z]{10}$/),
			status: 0,
			credentialId: null,
			title: 'CRM of ACME',
			dateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
		});
		expect(emu.links.url(301)).toBe(
			`https://connect.integrations-hub.com?id=301&token=${link.token}`,
		);
		const read = await call(emu, 'GET', `${SHARING}/301`);
		expect(read.data.data).toEqual(link);
	});

	it('needs an end-user token; another user sees 404', async () => {
		expect((await createLink(undefined, 'not-a-jwt')).status).toBe(401);
		expect(
			(
				await call(emu, 'POST', SHARING, {
					body: { partnerId: 201, title: 'x' },
					token: null,
					headers: { Authorization: master() },
				})
			).status,
		).toBe(401);
		await createLink();
		expect(
			(await call(emu, 'GET', `${SHARING}/301`, { token: emu.token({ sub: 'user-2' }) })).status,
		).toBe(404);
		expect((await call(emu, 'GET', `${SHARING}/999`)).status).toBe(404);
		expect(emu.links.list()).toHaveLength(1);
	});

	it('refuses bad input with one 400 entry per field, and creates nothing', async () => {
		const res = await createLink({ partnerId: '201', title: '' });
		expect(res.status).toBe(400);
		expect(res.data.errors).toEqual([
			{ field: 'partnerId', message: 'must be a positive integer' },
			{ field: 'title', message: 'must not be empty' },
		]);
		const missing = await createLink({});
		expect(missing.data.errors.map((e: { field: string }) => e.field)).toEqual([
			'partnerId',
			'title',
		]);
		const unknown = await createLink({ partnerId: 999, title: 'x'.repeat(256) });
		expect(unknown.data.errors).toEqual([
			{ field: 'partnerId', message: 'unknown partner (app) 999' },
			{ field: 'title', message: 'must be at most 255 characters' },
		]);
		expect(
			(
				await call(emu, 'POST', SHARING, {
					body: '[1]',
					headers: { 'Content-Type': 'application/json' },
				})
			).status,
		).toBe(400);
		expect(emu.links.list()).toHaveLength(0);
	});

	it('complete → connected with credentialId, and the credentialists offer that connection', async () => {
		await createLink();
		const done = await control('POST', '/links/301/complete');
		expect(done.status).toBe(200);
		expect(done.data.credential).toMatchObject({ id: 8001, partnerId: 201, title: 'CRM of ACME' });
		expect(done.data.credential.values.apiKey).toMatch(/^\*\*\*\*[0-9a-f]{4}$/);
		expect(JSON.stringify(done.data)).not.toContain(emu.links.get(301)!.token);
		const read = await call(emu, 'GET', `${SHARING}/301`);
		expect(read.data.data).toMatchObject({ status: 1, credentialId: 8001 });

		const steps = (await call(emu, 'GET', '/solution/101/credentialists')).data.data;
		expect(steps[0].values).toContainEqual({ value: '8001', title: 'CRM of ACME' });
		// Another user's credentialists do not offer it.
		const other = await call(emu, 'GET', '/solution/101/credentialists', {
			token: emu.token({ sub: 'user-2' }),
		});
		expect(other.data.data[0].values).not.toContainEqual({ value: '8001', title: 'CRM of ACME' });

		// Installation → Create takes its credentialId, as text or as a number.
		for (const crm of ['8001', 8001]) {
			const installed = await call(emu, 'POST', '/solution/101/installation', {
				body: {
					title: 'Linked',
					templateIds: [1011],
					credentialData: { crm, mailer: 'mailchimp' },
				},
			});
			expect(installed.status).toBe(201);
		}
		const wrong = await call(emu, 'POST', '/solution/101/installation', {
			body: {
				title: 'x',
				templateIds: [1011],
				credentialData: { crm: '8002', mailer: 'mailchimp' },
			},
		});
		expect(wrong.status).toBe(422);
	});

	it('a link works once: completing it twice fails, renewing a used one is 422', async () => {
		await createLink();
		emu.links.complete(301);
		expect(() => emu.links.complete(301)).toThrow(/already used/);
		const again = await control('POST', '/links/301/complete');
		expect(again.status).toBe(409);
		expect(again.data.error).toMatch(/works once/);
		expect((await call(emu, 'PUT', `${SHARING}/301`)).status).toBe(422);
		expect(emu.state.credentials.size).toBe(1);
		expect((await control('POST', '/links/999/complete')).status).toBe(404);
	});

	it('expires 48 h after creation on the emulator clock; renew gives a new token and 48 h more', async () => {
		const { data } = await createLink();
		const oldToken = data.data.token;
		emu.clock.advance(LINK_LIFETIME_MS - 1000);
		expect((await call(emu, 'GET', `${SHARING}/301`)).data.data.status).toBe(0);
		await control('POST', '/clock', { advanceSeconds: 2 });
		// Default variant: an expired link still reads 0; completing it fails.
		expect((await call(emu, 'GET', `${SHARING}/301`)).data.data.status).toBe(0);
		const expired = await control('POST', '/links/301/complete');
		expect([expired.status, expired.data.error]).toEqual([409, expect.stringMatching(/expired/)]);
		emu.setVariants({ linkExpiredStatus: 'expired' });
		expect((await call(emu, 'GET', `${SHARING}/301`)).data.data.status).toBe(2);

		const renewed = await call(emu, 'PUT', `${SHARING}/301`);
		expect(renewed.status).toBe(200);
		expect(renewed.data.data).toMatchObject({ id: 301, status: 0, credentialId: null });
		expect(renewed.data.data.token).not.toBe(oldToken);
		const left = emu.links.expiresAt(301) - emu.clock.now();
		expect(left).toBeGreaterThan(LINK_LIFETIME_MS - 5000);
		expect(left).toBeLessThanOrEqual(LINK_LIFETIME_MS);
		expect(emu.links.complete(301).id).toBe(8001);
	});

	it('renew by PATCH with a new title; a bad title is 400', async () => {
		await createLink();
		const res = await call(emu, 'PATCH', `${SHARING}/301`, { body: { title: 'Renamed' } });
		expect(res.data.data.title).toBe('Renamed');
		expect((await call(emu, 'PUT', `${SHARING}/301`, { body: { title: 5 } })).status).toBe(400);
		expect((await call(emu, 'POST', `${SHARING}/301`)).status).toBe(405);
	});

	it('delete: 200 {id} (or 204 with the variant); the link is gone, its credential stays', async () => {
		await createLink();
		emu.links.complete(301);
		const res = await call(emu, 'DELETE', `${SHARING}/301`);
		expect([res.status, res.data.data]).toEqual([200, { id: 301 }]);
		expect((await call(emu, 'GET', `${SHARING}/301`)).status).toBe(404);
		expect(emu.state.credentials.has(8001)).toBe(true);
		emu.setVariants({ linkDeleteAnswer: 'noContent' });
		await createLink();
		const empty = await call(emu, 'DELETE', `${SHARING}/302`);
		expect([empty.status, empty.data]).toEqual([204, '']);
		expect((await control('POST', '/links/302/complete')).status).toBe(404);
	});

	it('variants: bare, string ids, string/word status, null dateCreated, extra fields', async () => {
		emu.setVariants({
			bare: true,
			stringIds: true,
			statusShape: 'word',
			linkDateCreated: 'null',
			connectionExtraFields: true,
		});
		const { data } = await createLink();
		expect(data).toMatchObject({
			id: '301',
			partnerId: '201',
			status: 'waiting',
			credentialId: null,
			dateCreated: null,
			sharingType: 'link',
		});
		emu.links.complete(301);
		emu.setVariants({ statusShape: 'string' });
		expect((await call(emu, 'GET', `${SHARING}/301`)).data).toMatchObject({
			status: '1',
			credentialId: '8001',
		});
	});

	it('faults apply to the new paths (a reset after the create still creates the link)', async () => {
		emu.faults.add({ method: 'POST', path: SHARING, status: 503 });
		expect((await createLink()).status).toBe(503);
		emu.faults.add({ method: 'POST', path: SHARING, reset: 'after' });
		await expect(createLink()).rejects.toThrow();
		expect(emu.links.list()).toHaveLength(1);
		emu.faults.add({
			method: 'GET',
			path: /^\/credentials\/grant-access-sharing\/\d+$/,
			successFalse: true,
		});
		expect((await call(emu, 'GET', `${SHARING}/301`)).data.success).toBe(false);
		expect(emu.requests.map((r) => r.fault ?? '-')).toEqual([
			'status:503',
			'reset:after',
			'successFalse',
		]);
	});

	it('GET /__emulator/links never shows tokens', async () => {
		const { data } = await createLink();
		const listed = await control('GET', '/links');
		expect(listed.data[0]).toMatchObject({ id: 301, expired: false });
		expect(JSON.stringify(listed.data)).not.toContain(data.data.token);
	});
});

describe('update-user-data', () => {
	const refresh = (authorization: string | null, path = '/credentials/201/8001/update-user-data') =>
		call(emu, 'POST', path, {
			token: null,
			headers: authorization ? { Authorization: authorization } : {},
		});

	beforeEach(async () => {
		await createLink();
		emu.links.complete(301);
	});

	it('steps 1 → 2 → 3 on successive calls (the master token as Bearer), then starts again', async () => {
		const seen = [];
		for (let i = 0; i < 4; i++) seen.push((await refresh(master())).data.data.updateStatus);
		expect(seen).toEqual([1, 2, 3, 1]);
	});

	it("the owner's end-user token works too (variant 'either'); Basic, other users and bad ids do not", async () => {
		expect((await refresh(`Bearer ${emu.token()}`)).data.data).toEqual({ updateStatus: 1 });
		expect((await refresh(`Basic ${emu.partner.masterToken}`)).status).toBe(401);
		expect((await refresh(null)).status).toBe(401);
		expect((await refresh(`Bearer ${emu.token({ sub: 'user-2' })}`)).status).toBe(404);
		expect((await refresh(master(), '/credentials/202/8001/update-user-data')).status).toBe(404);
		expect((await refresh(master(), '/credentials/201/9999/update-user-data')).status).toBe(404);
		expect((await refresh(master(), '/credentials/999/8001/update-user-data')).status).toBe(404);
		expect((await call(emu, 'GET', '/credentials/201/8001/update-user-data')).status).toBe(405);
	});

	it("variants 'master' and 'user' take only one kind of token", async () => {
		emu.setVariants({ updateUserDataAuth: 'master' });
		expect((await refresh(`Bearer ${emu.token()}`)).status).toBe(401);
		expect((await refresh(master())).status).toBe(200);
		emu.setVariants({ updateUserDataAuth: 'user' });
		expect((await refresh(master())).status).toBe(401);
		expect((await refresh(`Bearer ${emu.token()}`)).status).toBe(200);
	});

	it('stays at 4 when the control call says so; a custom sequence; string/word statuses', async () => {
		expect((await control('POST', '/update-user-data', { mode: 'requeued' })).status).toBe(200);
		for (let i = 0; i < 3; i++) expect((await refresh(master())).data.data.updateStatus).toBe(4);
		emu.setUpdateUserData({ sequence: [1, 2] });
		const seen = [];
		for (let i = 0; i < 4; i++) seen.push((await refresh(master())).data.data.updateStatus);
		expect(seen).toEqual([1, 2, 2, 2]);
		expect(() => emu.setUpdateUserData({ sequence: [5] })).toThrow();
		expect((await control('POST', '/update-user-data', { mode: 'nope' })).status).toBe(400);
		emu.setUpdateUserData({ mode: 'progress' });
		emu.setVariants({ statusShape: 'word', connectionExtraFields: true });
		expect((await refresh(master())).data.data).toEqual({
			updateStatus: 'queued',
			credentialId: 8001,
			partnerId: 201,
		});
	});

	it('faults apply', async () => {
		emu.faults.add({
			path: '/credentials/201/8001/update-user-data',
			status: 429,
			retryAfterSeconds: 3,
		});
		const res = await refresh(master());
		expect([res.status, res.headers['retry-after']]).toEqual([429, '3']);
		expect((await refresh(master())).data.data.updateStatus).toBe(1);
	});
});

describe("the partner's own connection", () => {
	it('upsert creates, masks secrets as "••" + last 4 and gives a webhookUrl (the docs example)', async () => {
		const res = await wl('upsert-own-credential', {
			fields: { accessToken: 'cd98e8a3de9a7ee77daeb0e90bae570f', userId: 87123 },
		});
		expect(res.status).toBe(200);
		expect(res.data.data).toEqual({
			title: 'Default credential',
			accessToken: '••570f',
			userId: 87123,
			webhookUrl: expect.stringMatching(/^https:\/\/h\.albato\.emulator\/wh\//),
		});
		const read = await wl('get-own-credential');
		expect(read.data.data).toEqual(res.data.data);
		expect((await wl('get-own-credential', undefined, 'GET')).data.data).toEqual(res.data.data);
		expect(JSON.stringify(emu.requests.slice(1).map((r) => r))).not.toContain(
			'cd98e8a3de9a7ee77daeb0e90bae570f',
		);
		expect(emu.ownCredentials.list('user-1')[0].values.accessToken).toBe(
			'cd98e8a3de9a7ee77daeb0e90bae570f',
		);
	});

	it('updates one of several connections', async () => {
		emu.ownCredentials.add('user-1', { userId: 'a' });
		emu.ownCredentials.add('user-1', { userId: 'b' });
		await wl('upsert-own-credential', { fields: { domain: 'zone2.partner.com' } });
		const all = emu.ownCredentials.list('user-1');
		expect(all).toHaveLength(2);
		expect(all.filter((c) => c.values.domain === 'zone2.partner.com')).toHaveLength(1);
	});

	it('refuses bad fields (400 per field), masked values, and no connection yet is 404', async () => {
		expect((await wl('get-own-credential')).status).toBe(404);
		const bad = await wl('upsert-own-credential', {
			fields: { nope: 1, domain: 'zone9', secretKey: 5, userId: '', accessToken: '••570f' },
		});
		expect(bad.status).toBe(400);
		expect(bad.data.errors.map((e: { field: string }) => e.field)).toEqual([
			'fields.nope',
			'fields.domain',
			'fields.secretKey',
			'fields.userId',
			'fields.accessToken',
		]);
		for (const body of [{}, { fields: [] }, { fields: {} }, { fields: 'x' }])
			expect((await wl('upsert-own-credential', body)).status).toBe(400);
		expect(emu.ownCredentials.list()).toHaveLength(0);
	});

	it('end-user token only (master Basic refused); another partner name is 403', async () => {
		const asMaster = await call(emu, 'POST', `/wl/${emu.partner.name}/get-own-credential`, {
			token: null,
			headers: { Authorization: `Basic ${emu.partner.masterToken}` },
		});
		expect(asMaster.status).toBe(401);
		expect((await wl('get-own-credential', undefined, 'POST', null)).status).toBe(401);
		const other = await call(emu, 'POST', '/wl/other-partner/upsert-own-credential', {
			body: { fields: { userId: 1 } },
		});
		expect(other.status).toBe(403);
	});

	it('metadata: GET or POST, end-user token or master Basic; fields without required', async () => {
		const get = await wl('get-own-credential-metadata', undefined, 'GET');
		expect(get.data.data.fields).toContainEqual({
			id: 'domain',
			type: 10,
			label: 'Domain',
			allowedValues: { 'zone1.partner.com': 'East-1', 'zone2.partner.com': 'West-1' },
		});
		expect(get.data.data.fields.every((f: object) => !('required' in f))).toBe(true);
		const basic = await call(emu, 'POST', `/wl/${emu.partner.name}/get-own-credential-metadata`, {
			token: null,
			headers: { Authorization: `Basic ${emu.partner.masterToken}` },
		});
		expect(basic.data.data).toEqual(get.data.data);
		emu.setVariants({ ownMetadataAuth: 'user' });
		expect(
			(
				await call(emu, 'GET', `/wl/${emu.partner.name}/get-own-credential-metadata`, {
					token: null,
					headers: { Authorization: `Basic ${emu.partner.masterToken}` },
				})
			).status,
		).toBe(401);
		emu.setVariants({ ownMetadataAuth: 'master' });
		expect((await wl('get-own-credential-metadata', undefined, 'GET')).status).toBe(401);
	});

	it('variants and faults: bare, extra fields, malformed JSON after applying', async () => {
		emu.setVariants({ bare: true, connectionExtraFields: true });
		const res = await wl('upsert-own-credential', { fields: { secretKey: 'short' } });
		expect(res.data).toMatchObject({ title: 'Default credential', secretKey: '••', id: 1 });
		emu.faults.add({ path: `/wl/${emu.partner.name}/upsert-own-credential`, malformedJson: true });
		const cut = await wl('upsert-own-credential', { fields: { userId: 7 } });
		expect(typeof cut.data).toBe('string');
		expect(emu.ownCredentials.list('user-1')[0].values.userId).toBe(7);
	});
});

it('reset forgets links, own connections, the refresh rule and the clock', async () => {
	await createLink();
	emu.ownCredentials.add('user-1', { userId: 1 });
	emu.clock.advance(1e9);
	emu.setUpdateUserData({ mode: 'requeued' });
	emu.reset();
	expect(emu.links.list()).toEqual([]);
	expect(emu.ownCredentials.list()).toEqual([]);
	expect(Math.abs(emu.clock.now() - Date.now())).toBeLessThan(1000);
	expect((await createLink()).data.data.id).toBe(301);
	expect(VALID_CREDENTIAL_DATA[101].crm).toBe('hubspot');
});
