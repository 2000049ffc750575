/** Fleets: seeding many end users in one control call, and the request summary. */
import axios from 'axios';

import { startEmulator, type Emulator } from '../../emulator';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const control = (method: string, p: string, data?: unknown) =>
	axios.request({
		url: `${emu.baseUrl}/__emulator/${p}`,
		method,
		data,
		validateStatus: () => true,
	});

const partnerCall = (p: string, data: unknown) =>
	axios.post(`${emu.baseUrl}/wl/${emu.partner.name}/${p}`, data, {
		headers: { authorization: `Basic ${emu.partner.masterToken}` },
		validateStatus: () => true,
	});

it('POST /fleet: end users, each with an active installation of 2 automations and a run each', async () => {
	const seeded = await control('POST', 'fleet', { count: 3, idPrefix: 'acme-' });
	expect(seeded.status).toBe(201);
	const customers = seeded.data.customers;
	expect(customers.map((c: { id: string }) => c.id)).toEqual([
		'acme-00000',
		'acme-00001',
		'acme-00002',
	]);
	for (const customer of customers) {
		const installation = emu.state.installations.get(customer.installationId)!;
		expect(installation).toMatchObject({
			userId: `${emu.partner.name}:${customer.id}`,
			title: `Leads of ${customer.id}`,
			status: 1,
			solutionId: 101,
		});
		expect(installation.bundleIds).toHaveLength(2);
		expect(customer.bundleIds).toEqual(installation.bundleIds);
		const runs = emu.runs().filter((run) => installation.bundleIds.includes(run.bundleId));
		expect(runs).toHaveLength(2);
	}
	// They are end users like any other: a token, and their own installations only.
	const token = await partnerCall('get-user-session-token', { id: 'acme-00001' });
	expect(token.status).toBe(200);
	const list = await axios.get(`${emu.baseUrl}/solution/installation`, {
		headers: { authorization: `Bearer ${token.data.data.sessionToken}` },
	});
	expect(list.data.data.map((i: { id: number }) => i.id)).toEqual([customers[1].installationId]);
	const events = await axios.get(`${emu.baseUrl}/bundle/events`, {
		headers: { authorization: `Bearer ${token.data.data.sessionToken}` },
	});
	expect(events.data.data).toHaveLength(2);
});

it('POST /fleet refuses a bad count, and a repeated id as add-user does', async () => {
	expect((await control('POST', 'fleet', { count: 0 })).status).toBe(400);
	expect((await control('POST', 'fleet', { count: 1, idPrefix: 'x-' })).status).toBe(201);
	expect((await control('POST', 'fleet', { count: 1, idPrefix: 'x-' })).status).toBe(400);
});

it('GET /requests/summary counts calls by kind, status, 429s and token calls per user; keep: false stops the log', async () => {
	await control('POST', 'fleet', { count: 2, idPrefix: 'c-' });
	expect((await control('POST', 'requests/keep', { keep: false })).data).toEqual({ keep: false });
	await partnerCall('get-user-session-token', { id: 'c-00000' });
	await partnerCall('get-user-session-token', { id: 'c-00000' });
	const token = await partnerCall('get-user-session-token', { id: 'c-00001' });
	await axios.request({
		method: 'PAUSE',
		url: `${emu.baseUrl}/solution/installation/${[...emu.state.installations.values()].at(-1)!.id}`,
		headers: { authorization: `Bearer ${token.data.data.sessionToken}` },
	});
	await partnerCall('get-user-session-token', {});
	expect(emu.requests).toEqual([]);
	const summary = (await control('GET', 'requests/summary')).data;
	expect(summary).toMatchObject({
		total: 5,
		byKind: {
			'POST /wl/{partner}/get-user-session-token': 4,
			'PAUSE /solution/installation/{id}': 1,
		},
		byStatus: { '200': 4, '400': 1 },
		rateLimited: 0,
		tokenCalls: { users: 3, total: 4, maxPerUser: 2, histogram: { '1': 2, '2': 1 } },
	});
	await control('DELETE', 'requests');
	expect((await control('GET', 'requests/summary')).data.total).toBe(0);
	emu.reset();
	await partnerCall('get-user-session-token', { id: 'nobody' });
	expect(emu.requests).toHaveLength(1);
});

it('GET /requests/summary counts 401s and calls by token kind, form and status', async () => {
	await control('POST', 'fleet', { count: 1, idPrefix: 'a-' });
	await control('POST', 'variants', { strictAuth: 'noBasicUsername' });
	const username = Buffer.from(`${emu.partner.masterToken}:`).toString('base64');
	const refused = await axios.post(
		`${emu.baseUrl}/wl/${emu.partner.name}/get-user-session-token`,
		{ id: 'a-00000' },
		{ headers: { authorization: `Basic ${username}` }, validateStatus: () => true },
	);
	expect(refused.status).toBe(401);
	const token = await partnerCall('get-user-session-token', { id: 'a-00000' });
	await axios.get(`${emu.baseUrl}/solution/installation`, {
		headers: { authorization: `Bearer ${token.data.data.sessionToken}` },
	});
	const summary = (await control('GET', 'requests/summary')).data;
	expect(summary.unauthorized).toBe(1);
	// The refused call issued no token.
	expect(summary.tokenCalls).toMatchObject({ total: 1, maxPerUser: 1 });
	expect(summary.byAuth).toEqual({
		'master basicUsername 401': 1,
		'master basicRaw 200': 1,
		'endUser bearer 200': 1,
	});
});

it('POST /fleet/status: the installations of one seed per customer, with a field value; an owner index that follows changes', async () => {
	const { customers } = (await control('POST', 'fleet', { count: 2, idPrefix: 's-' })).data;
	await control('POST', 'fleet', { count: 1, idPrefix: 'other-' });
	const status = (await control('POST', 'fleet/status', { idPrefix: 's-', field: 'subject' })).data
		.customers;
	expect(Object.keys(status)).toEqual(['s-00000', 's-00001']);
	expect(status['s-00000']).toEqual([
		[customers[0].installationId, 'Leads of s-00000', 1, expect.anything()],
	]);
	expect((await control('POST', 'fleet/status', {})).status).toBe(400);

	// The list reads the owner index: an installation handed to another user, or removed, moves.
	const [first, second] = customers.map((c: { installationId: number }) => c.installationId);
	emu.state.installations.get(first)!.userId = `${emu.partner.name}:s-00001`;
	emu.removeInstallation(second);
	const token = await partnerCall('get-user-session-token', { id: 's-00001' });
	const listOf = async (sessionToken: string) =>
		(
			await axios.get(`${emu.baseUrl}/solution/installation`, {
				headers: { authorization: `Bearer ${sessionToken}` },
			})
		).data.data.map((i: { id: number }) => i.id);
	expect(await listOf(token.data.data.sessionToken)).toEqual([first]);
	const before = await partnerCall('get-user-session-token', { id: 's-00000' });
	expect(await listOf(before.data.data.sessionToken)).toEqual([]);
	emu.reset();
	expect(await listOf(emu.token())).toEqual(
		[...emu.state.installations.values()]
			.filter((i) => i.userId === 'user-1')
			.map((i) => i.id)
			.sort((a, b) => a - b),
	);
});
