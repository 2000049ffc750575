/**
 * What Auto learns from an answer: only one past the token check (not a 401, 403, 429 or 5xx)
 * teaches the form it was sent in, and a failure past the token check keeps what was learnt.
 * Through n8n-core against the emulator, with a permanent token (Auto tries two forms).
 */
import type { INodeParameters } from 'n8n-workflow';

import { addUsers, usePartnerEmulator } from '../support/partnerSetup';
import { runNode } from '../support/setup';

const ctx = usePartnerEmulator();

const APPS = '/solution/apps';
const getApps: INodeParameters = {
	resource: 'solution',
	operation: 'getAll',
	returnAll: true,
	requestOptions: { maxRetries: 0, retryBudget: 0 },
};

/** The Authorization forms of the calls since `from`, with their statuses ("basicUsername 401"). */
const sent = (from = 0) => ctx.emu.requests.slice(from).map((r) => `${r.auth} ${r.status}`);

/** A permanent token of a new end user, with a service that refuses it as Basic username. */
async function bearerOnlyToken(): Promise<string> {
	await addUsers(ctx.emu, ['p-1']);
	ctx.emu.setVariants({ strictAuth: 'noBasicUsername' });
	return ctx.emu.state.endUsers.get(`${ctx.emu.partner.name}\n${'p-1'}`)?.permanentToken ?? '';
}

it.each([500, 403, 429])(
	'a %i to the first form teaches nothing: the next call tries both forms again',
	async (status) => {
		const token = await bearerOnlyToken();
		ctx.emu.faults.add({ method: 'GET', path: APPS, status, retryAfterSeconds: 1 });
		expect((await runNode(ctx.emu, getApps, { token })).error?.httpCode).toBe(String(status));
		const from = ctx.emu.requests.length;
		expect((await runNode(ctx.emu, getApps, { token })).error).toBeUndefined();
		expect(sent(from)).toEqual(['basicUsername 401', 'bearer 200']);
	},
);

it('a 401 to the first form, then a 500 to the other: nothing learnt', async () => {
	const token = await bearerOnlyToken();
	ctx.emu.faults.add({ method: 'GET', path: APPS, status: 401 });
	ctx.emu.faults.add({ method: 'GET', path: APPS, status: 500 });
	expect((await runNode(ctx.emu, getApps, { token })).error?.httpCode).toBe('500');
	const from = ctx.emu.requests.length;
	expect((await runNode(ctx.emu, getApps, { token })).error).toBeUndefined();
	expect(sent(from)).toEqual(['basicUsername 401', 'bearer 200']);
});

it.each([400, 404, 500])(
	'a form learnt stays after a %i (the token got past the check, or was not judged)',
	async (status) => {
		const token = await bearerOnlyToken();
		expect((await runNode(ctx.emu, getApps, { token })).error).toBeUndefined();
		ctx.emu.faults.add({ method: 'GET', path: APPS, status });
		expect((await runNode(ctx.emu, getApps, { token })).error?.httpCode).toBe(String(status));
		const from = ctx.emu.requests.length;
		expect((await runNode(ctx.emu, getApps, { token })).error).toBeUndefined();
		expect(sent(from)).toEqual(['bearer 200']);
	},
);
