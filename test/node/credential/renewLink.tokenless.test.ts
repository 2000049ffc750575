/**
 * Credential → Renew Link when the renew answer holds no token (204, `{id}`, `data: []`): the old
 * token is replaced all the same, so the link is read (GET) and built from its token; when that
 * has none either, the item fails saying so.
 */
import { LINK_LIFETIME_MS } from '../../../emulator';
import { usePartnerEmulator } from '../../support/partnerSetup';
import { runNode } from '../../support/setup';
import { expectRenewed, linkMade, outsideLinks, sharingParams } from './linkSetup';

const ctx = usePartnerEmulator();

describe('Credential → Renew Link: an answer without a token', () => {
	it.each([
		['204 with no body', 'noContent' as const],
		['{id}', 'id' as const],
		['data: []', 'emptyList' as const],
	])('on %s, reads the link and outputs the new one', async (_name, answer) => {
		const id = await linkMade(ctx.emu);
		const oldToken = ctx.emu.links.get(id)!.token;
		ctx.emu.clock.advance(LINK_LIFETIME_MS + 1000);
		ctx.emu.setVariants({ linkRenewAnswer: answer });
		const run = await runNode(ctx.emu, sharingParams('renewLink', id));
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([
			`PUT /credentials/grant-access-sharing/${id}`,
			`GET /credentials/grant-access-sharing/${id}`,
		]);
		expectRenewed(ctx.emu, run, id, oldToken);
	});

	it('fails saying so when the link read has no token either, without showing a token', async () => {
		const id = await linkMade(ctx.emu);
		ctx.emu.setVariants({ linkRenewAnswer: 'noContent', linkReadToken: 'hidden' });
		const run = await runNode(ctx.emu, sharingParams('renewLink', id));
		expect(run.calls).toEqual([
			`PUT /credentials/grant-access-sharing/${id}`,
			`GET /credentials/grant-access-sharing/${id}`,
		]);
		expect(run.error?.message).toBe(
			`Link ${id} was renewed, but neither the answer nor a read of the link holds its new token: no link can be made`,
		);
		expect(run.error?.description).toMatch(/old link no longer works/);
		expect(outsideLinks(run)).not.toContain(ctx.emu.links.get(id)!.token);
	});
});
