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
