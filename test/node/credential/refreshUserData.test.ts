/**
 * Credential → Refresh User Data: POST …/update-user-data, optionally repeated until updateStatus
 * is 3, bounded; the master token as Bearer in partner mode (Albato's page), else the end user's.
 */
import {
	addUsers,
	partnerCredential,
	runPartner,
	usePartnerEmulator,
} from '../../support/partnerSetup';
import { runNode } from '../../support/setup';
import { useShortWaits } from '../../support/waits';
import { linkMade } from './linkSetup';

const ctx = usePartnerEmulator();
/** The poll interval passes 20 times sooner; the clock moves on as if all of it had passed. */
useShortWaits(20, { moveClock: true });

const refresh = (connectionId: number | string, extra = {}) => ({
	resource: 'credential',
	operation: 'refreshUserData',
	connectionPartnerId: 201,
	connectionId,
	...extra,
});
const fast = { maxWait: 5, pollInterval: 1 };

/** A connection of user-1 made by link. */
async function linkedConnection(): Promise<number> {
	return ctx.emu.links.complete(await linkMade(ctx.emu)).id;
}

describe('Credential → Refresh User Data', () => {
	it('outputs the first answer without waiting', async () => {
		const id = await linkedConnection();
		const run = await runNode(ctx.emu, refresh(id));
		expect(run.calls).toEqual([`POST /credentials/201/${id}/update-user-data`]);
		expect(ctx.emu.requests.at(-1)?.body).toBeUndefined();
		expect(run.json[0]).toMatchObject({
			connectionId: id,
			updateStatus: 1,
			updateStatusName: 'queued',
			updated: false,
			requests: 1,
		});
	});

	it.each([
		['numbers', {}],
		['numeric strings', { statusShape: 'string' as const }],
		['words', { statusShape: 'word' as const }],
		['bare answers', { bare: true }],
	])('waits until updateStatus is 3 (1 → 2 → 3), statuses as %s', async (_name, variants) => {
		const id = await linkedConnection();
		ctx.emu.setVariants(variants);
		const run = await runNode(ctx.emu, refresh(id, { waitUntilUpdated: true, options: fast }));
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(Array(3).fill(`POST /credentials/201/${id}/update-user-data`));
		expect(run.json[0]).toMatchObject({
			updateStatus: 3,
			updateStatusName: 'updated',
			updated: true,
			requests: 3,
		});
	});

	it('gives up at its bound, naming the last status', async () => {
		const id = await linkedConnection();
		ctx.emu.setUpdateUserData({ sequence: [1, 2] });
		const started = Date.now();
		const run = await runNode(
			ctx.emu,
			refresh(id, { waitUntilUpdated: true, options: { maxWait: 2, pollInterval: 1 } }),
		);
		expect(run.error?.message).toBe(
			`Connection ${id} was not updated within 2 s: the last updateStatus was 2 (in progress)`,
		);
		expect(run.calls).toHaveLength(3);
		expect(Date.now() - started).toBeLessThan(5000);
	});

	it('gives up on a refresh that stays re-queued (4), saying to retry later', async () => {
		const id = await linkedConnection();
		ctx.emu.setUpdateUserData({ mode: 'requeued' });
		const run = await runNode(
			ctx.emu,
			refresh(id, { waitUntilUpdated: true, options: { maxWait: 1, pollInterval: 1 } }),
		);
		expect(run.error?.message).toMatch(/last updateStatus was 4 \(re-queued\)/);
		expect(run.error?.description).toMatch(/retry later/);
		expect(run.calls).toHaveLength(2);
	});

	it('bounds the wait by the time passed, not by a count of requests (slow answers)', async () => {
		const id = await linkedConnection();
		ctx.emu.setUpdateUserData({ sequence: [1] });
		ctx.emu.faults.add({
			path: `/credentials/201/${id}/update-user-data`,
			delayMs: 1500,
			times: 5,
		});
		const started = Date.now();
		const run = await runNode(
			ctx.emu,
			refresh(id, { waitUntilUpdated: true, options: { maxWait: 2, pollInterval: 1 } }),
		);
		expect(run.error?.message).toMatch(/was not updated within 2 s/);
		// At 0 s and at the 2 s bound; a third request would end past 5 s.
		expect(run.calls).toHaveLength(2);
		expect(Date.now() - started).toBeLessThan(5000);
	});

	it.each([
		['App ID', { connectionPartnerId: 'crm' }, /App ID must be a positive whole number/],
		['Connection ID', { connectionId: 0 }, /Connection ID must be a positive whole number/],
		['Connection ID', { connectionId: 'x' }, /Connection ID must be a positive whole number/],
		['Max Wait', { options: { maxWait: 0 } }, /Max Wait \(Seconds\) must be/],
		['Max Wait', { options: { maxWait: 100000 } }, /Max Wait \(Seconds\) must be/],
		['Poll Interval', { options: { pollInterval: 0 } }, /Poll Interval \(Seconds\) must be/],
		[
			'Poll Interval',
			{ options: { pollInterval: 0.5 } },
			/^Options → Poll Interval \(Seconds\) must be a number of seconds from 1 to 60, got 0.5/,
		],
	])('refuses a bad %s before any request', async (_name, extra, message) => {
		const run = await runNode(ctx.emu, refresh(5, extra));
		expect(run.error?.message).toMatch(message);
		expect(run.calls).toEqual([]);
	});

	it("reports another user's or an unknown connection as not found", async () => {
		const run = await runNode(ctx.emu, refresh(98765));
		expect(run.error?.message).toMatch(/not found/i);
		expect(run.error?.description ?? '').not.toMatch(/Partner API/);
	});

	it('where only the master token is taken (strict reading panelToken): says to use the Partner API', async () => {
		const id = await linkedConnection();
		ctx.emu.setVariants({ strictAuth: 'panelToken' });
		const run = await runNode(ctx.emu, refresh(id));
		expect(run.error?.httpCode).toBe('401');
		expect(run.error?.description).toMatch(/Authentication: Partner API/);
		expect(run.calls).toEqual([`POST /credentials/201/${id}/update-user-data`]);
		expect(run.serialized).not.toContain(ctx.token);
	});
});

describe('partner mode', () => {
	beforeEach(async () => await addUsers(ctx.emu, ['cust-1']));

	async function partnerConnection(): Promise<number> {
		const made = await runPartner(ctx.emu, {
			resource: 'credential',
			operation: 'createLink',
			linkPartnerId: 201,
			linkTitle: 'CRM',
		});
		return ctx.emu.links.complete(made.json[0].sharingId as number).id;
	}

	it('sends the master token as Bearer by default (the documented way): no end-user token is minted', async () => {
		const id = await partnerConnection();
		ctx.emu.setVariants({ updateUserDataAuth: 'master' });
		const run = await runPartner(ctx.emu, refresh(id, { waitUntilUpdated: true, options: fast }));
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(Array(3).fill(`POST /credentials/201/${id}/update-user-data`));
		expect(run.json[0].updated).toBe(true);
		expect(run.serialized).not.toContain(ctx.emu.partner.masterToken);
	});

	it("sends the End User ID's minted token with Authorize As: End User", async () => {
		const id = await partnerConnection();
		ctx.emu.setVariants({ updateUserDataAuth: 'user' });
		const run = await runPartner(ctx.emu, refresh(id, { options: { authorizeAs: 'endUser' } }));
		expect(run.error).toBeUndefined();
		expect(run.calls.at(-1)).toBe(`POST /credentials/201/${id}/update-user-data`);
		expect(ctx.emu.requests.at(-1)?.user).toMatch(/cust-1$/);
		// The master token pinned: a credential that chose its form finds out nothing (on Auto the end
		// user's token follows the master token's 401: strictAuth.test.ts).
		const credential = partnerCredential(ctx.emu, { headerForm: 'basicUsername' });
		const refused = await runPartner(ctx.emu, refresh(id), { credential });
		expect(refused.error?.message).toBeDefined();
		expect(refused.error?.description).toMatch(/Authorize As/);
	});

	it('refuses a bad Authorize As before any request', async () => {
		const run = await runPartner(ctx.emu, refresh(5, { options: { authorizeAs: 'root' } }));
		expect(run.error?.message).toMatch(/Authorize As must be/);
		expect(run.calls).toEqual([]);
	});
});
