/**
 * Billing: /wl list-plans (GET | POST), block-user-plan and add-user-plan-transactions
 * with the master token; a blocked user's installations paused, PLAY and install refused with words
 * that say the user is blocked; set-user-plan lifts the block (a choice: variant setPlanUnblocks).
 */
import { startEmulator, type Emulator } from '../../emulator';
import { BLOCKED_MESSAGE } from '../../emulator/handlers/billing';
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
	body?: unknown,
	{ method = 'POST', authorization = basic() }: { method?: string; authorization?: string } = {},
) =>
	call(emu, method, `/wl/${emu.partner.name}/${endpoint}`, {
		body,
		token: null,
		headers: { Authorization: authorization },
	});
const addUser = async (id: string) =>
	(await wl('add-user', { id })).data.data as { sessionToken: string };
const profile = async (id: string) =>
	(await wl('get-user-profile', { id })).data.data as { planId: number | null; trxLimit: number };

describe('list-plans', () => {
	it.each(['GET', 'POST'])('answers the documented [{id, monthlyTrx}] to %s', async (method) => {
		const res = await wl('list-plans', undefined, { method });
		expect(res.status).toBe(200);
		expect(res.data).toEqual({
			success: true,
			data: PLANS.map((plan) => ({ id: plan.id, monthlyTrx: plan.trxLimit })),
		});
	});

	it.each([
		['get', 'POST', 'GET'],
		['post', 'GET', 'POST'],
	] as const)('listPlansMethod %s: %s answers 405 with Allow', async (variant, refused, allow) => {
		emu.setVariants({ listPlansMethod: variant });
		const res = await wl('list-plans', undefined, { method: refused });
		expect(res.status).toBe(405);
		expect(res.headers.allow).toBe(allow);
		expect((await wl('list-plans', undefined, { method: allow })).status).toBe(200);
	});

	it('takes the master token in both Basic styles, refuses Bearer and none', async () => {
		const username = `Basic ${Buffer.from(`${emu.partner.masterToken}:`).toString('base64')}`;
		expect((await wl('list-plans', undefined, { authorization: username })).status).toBe(200);
		const bearer = `Bearer ${emu.partner.masterToken}`;
		expect((await wl('list-plans', undefined, { authorization: bearer })).status).toBe(401);
		expect((await wl('list-plans', undefined, { authorization: 'Basic wrong' })).status).toBe(401);
	});
});

describe('block-user-plan', () => {
	it('answers [] and pauses every installation of the user; PLAY and install are refused', async () => {
		const { sessionToken } = await addUser('john');
		const sub = `${emu.partner.name}:john`;
		emu.state.installations.get(5002)!.userId = sub;
		emu.state.installations.get(5002)!.status = 1;
		const res = await wl('block-user-plan', { id: 'john' });
		expect(res.status).toBe(200);
		expect(res.data).toEqual({ success: true, data: [] });
		expect(emu.state.installations.get(5002)!.status).toBe(0);
		expect(emu.billing.isBlocked('john')).toBe(true);

		const play = await call(emu, 'PLAY', '/solution/installation/5002', { token: sessionToken });
		expect(play.status).toBe(422);
		expect(JSON.stringify(play.data)).toContain(BLOCKED_MESSAGE);
		expect(BLOCKED_MESSAGE).toMatch(/blocked/);
		const pause = await call(emu, 'PAUSE', '/solution/installation/5002', { token: sessionToken });
		expect(pause.status).toBe(200);
		const install = await call(emu, 'POST', '/solution/102/installation', {
			token: sessionToken,
			body: { title: 'New', templateIds: [1021], credentialData: {} },
		});
		expect(install.status).toBe(422);
		expect(JSON.stringify(install.data)).toContain(BLOCKED_MESSAGE);
	});

	it('unknown user → 404; no id → 400 (field id)', async () => {
		expect((await wl('block-user-plan', { id: 'nobody' })).status).toBe(404);
		const res = await wl('block-user-plan', {});
		expect(res.status).toBe(400);
		expect(JSON.stringify(res.data)).toContain('"field":"id"');
	});

	it('set-user-plan lifts the block (default choice); installations stay paused', async () => {
		const { sessionToken } = await addUser('john');
		emu.state.installations.get(5002)!.userId = `${emu.partner.name}:john`;
		await wl('block-user-plan', { id: 'john' });
		expect((await wl('set-user-plan', { id: 'john', planId: 23 })).status).toBe(200);
		expect(emu.billing.isBlocked('john')).toBe(false);
		expect(emu.state.installations.get(5002)!.status).toBe(0);
		const play = await call(emu, 'PLAY', '/solution/installation/5002', { token: sessionToken });
		expect(play.status).toBe(200);
	});

	it('setPlanUnblocks no: the user stays blocked after set-user-plan', async () => {
		emu.setVariants({ setPlanUnblocks: 'no' });
		await addUser('john');
		await wl('block-user-plan', { id: 'john' });
		await wl('set-user-plan', { id: 'john', planId: 23 });
		expect(emu.billing.isBlocked('john')).toBe(true);
	});
});

describe('add-user-plan-transactions', () => {
	it('adds to what is left this month', async () => {
		await addUser('john');
		emu.setTransactionsUsed('john', 900);
		const res = await wl('add-user-plan-transactions', { id: 'john', count: 2000 });
		expect(res.status).toBe(200);
		expect(res.data).toEqual({ success: true, data: [] });
		expect((await profile('john')).trxLimit).toBe(PLANS[0].trxLimit - 900 + 2000);
	});

	it.each([150, 0, -100, 1.5, '200', undefined])('count %p → 400 (field count)', async (count) => {
		await addUser('john');
		const res = await wl('add-user-plan-transactions', { id: 'john', count });
		expect(res.status).toBe(400);
		expect(JSON.stringify(res.data)).toContain('"field":"count"');
	});

	it('no active plan (taken away, or blocked) → 400; set-user-plan gives one again', async () => {
		await addUser('john');
		emu.billing.clearPlan('john');
		expect(await profile('john')).toMatchObject({ planId: null, trxLimit: 0 });
		const refused = await wl('add-user-plan-transactions', { id: 'john', count: 100 });
		expect(refused.status).toBe(400);
		expect(JSON.stringify(refused.data)).toMatch(/no active billing plan/);
		await wl('set-user-plan', { id: 'john', planId: 1 });
		expect((await wl('add-user-plan-transactions', { id: 'john', count: 100 })).status).toBe(200);
		await wl('block-user-plan', { id: 'john' });
		expect((await wl('add-user-plan-transactions', { id: 'john', count: 100 })).status).toBe(400);
	});

	it('the control call takes a plan away over HTTP', async () => {
		await addUser('john');
		const res = await call(emu, 'POST', '/__emulator/end-users/clear-plan', {
			token: null,
			body: { id: 'john' },
		});
		expect(res.status).toBe(200);
		expect((await profile('john')).planId).toBeNull();
	});

	it('reset forgets blocks, extras and plans taken away', async () => {
		await addUser('john');
		await wl('block-user-plan', { id: 'john' });
		emu.reset();
		await addUser('john');
		expect(emu.billing.isBlocked('john')).toBe(false);
	});
});
