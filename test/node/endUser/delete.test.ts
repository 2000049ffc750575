/**
 * End User → Delete: nothing is sent without the confirmation; with it the user, their
 * installations and their tokens are gone, and no cached token of theirs is sent again; an unknown
 * user is said so.
 */
import { addUsers, runPartner, TOKEN_PATH, usePartnerEmulator } from '../../support/partnerSetup';
import { byId } from '../../support/setup';
import { callsTo, DELETE_PATH } from './lifecycleSetup';

const ctx = usePartnerEmulator();
const del = (confirmDelete?: boolean) => ({
	resource: 'endUser',
	operation: 'delete',
	...(confirmDelete === undefined ? {} : { confirmDelete }),
});
const owner = (id: string) => `${ctx.emu.partner.name}:${id}`;

describe('End User → Delete', () => {
	beforeEach(async () => {
		await addUsers(ctx.emu, ['john', 'mary']);
		ctx.emu.state.installations.get(5002)!.userId = owner('john');
	});

	it.each([
		['left at its default', undefined],
		['off', false],
	])('with the confirmation %s: the item fails and nothing is sent', async (_name, confirm) => {
		const run = await runPartner(ctx.emu, del(confirm), { inputItems: [{ customer: 'john' }] });
		expect(run.error?.message).toMatch(/Confirm: Delete Permanently is off/);
		expect(run.calls).toEqual([]);
		expect(ctx.emu.state.installations.has(5002)).toBe(true);
	});

	it('confirmed: deletes the user and their installations; their token is not sent again', async () => {
		// One execution: pause their installation (mints and caches john's token), delete, then read
		// again.
		const pause = await runPartner(
			ctx.emu,
			{ resource: 'installation', operation: 'pause', installationId: byId('id', 5002) },
			{ inputItems: [{ customer: 'john' }] },
		);
		expect(pause.error).toBeUndefined();
		expect(callsTo(pause, TOKEN_PATH)).toBe(1);

		const run = await runPartner(ctx.emu, del(true), { inputItems: [{ customer: 'john' }] });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([{ endUserId: 'john', deleted: true }]);
		expect(callsTo(run, DELETE_PATH)).toBe(1);
		expect(ctx.emu.requests.at(-1)!.body).toEqual({ id: 'john' });
		expect(ctx.emu.state.installations.has(5002)).toBe(false);
		expect([...ctx.emu.state.endUsers.values()].some((u) => u.id === 'john')).toBe(false);

		// A later call as john asks for a new token (refused: the user is gone) and sends no call with
		// the cached one: the only calls are token calls.
		const after = await runPartner(
			ctx.emu,
			{ resource: 'installation', operation: 'getAll', returnAll: true },
			{ inputItems: [{ customer: 'john' }] },
		);
		expect(after.error).toBeDefined();
		expect(callsTo(after, TOKEN_PATH)).toBeGreaterThan(0);
		expect(after.calls.every((call) => TOKEN_PATH.test(call.split(' ')[1]))).toBe(true);
		expect(after.error?.message).toMatch(/not found/i);
	});

	it("another user's token stays cached", async () => {
		await runPartner(
			ctx.emu,
			{ resource: 'installation', operation: 'getAll', returnAll: true },
			{ inputItems: [{ customer: 'mary' }] },
		);
		await runPartner(ctx.emu, del(true), { inputItems: [{ customer: 'john' }] });
		const again = await runPartner(
			ctx.emu,
			{ resource: 'installation', operation: 'getAll', returnAll: true },
			{ inputItems: [{ customer: 'mary' }] },
		);
		expect(again.error).toBeUndefined();
		expect(callsTo(again, TOKEN_PATH)).toBe(0);
	});

	it('a user that does not exist is reported as such', async () => {
		const run = await runPartner(ctx.emu, del(true), { inputItems: [{ customer: 'nobody' }] });
		expect(run.error?.message).toBe('End user "nobody" does not exist: nothing was deleted');
		expect(callsTo(run, DELETE_PATH)).toBe(1);
	});

	it('deleting twice (a webhook delivered again): the second says the user does not exist', async () => {
		expect(
			(await runPartner(ctx.emu, del(true), { inputItems: [{ customer: 'john' }] })).error,
		).toBeUndefined();
		const again = await runPartner(ctx.emu, del(true), { inputItems: [{ customer: 'john' }] });
		expect(again.error?.message).toMatch(/does not exist/);
	});
});
