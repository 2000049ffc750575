/**
 * Credential → Delete Link of a link that does not exist (a rerun after a lost answer): a clear
 * message.
 */
import { usePartnerEmulator } from '../../support/partnerSetup';
import { runNode } from '../../support/setup';
import { linkMade, sharingParams } from './linkSetup';

const ctx = usePartnerEmulator();

describe('Credential → Delete Link: not found', () => {
	it('a second delete of the same link says it does not exist (already deleted?)', async () => {
		const id = await linkMade(ctx.emu);
		const params = sharingParams('deleteLink', id, { confirmDeleteLink: true });
		expect((await runNode(ctx.emu, params)).error).toBeUndefined();
		const again = await runNode(ctx.emu, params);
		expect(again.calls).toEqual([`DELETE /credentials/grant-access-sharing/${id}`]);
		expect(again.error?.message).toBe(
			`Link ${id} does not exist (already deleted?): nothing was deleted`,
		);
		expect(again.error?.description).toMatch(/answered 404/);
	});
});
