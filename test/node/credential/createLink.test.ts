/**
 * Credential → Create Link: POST /credentials/grant-access-sharing as the end user; the link (the
 * only place its token appears) and a computed expiry, in every shape the emulator serves.
 */
import { LINK_LIFETIME_MS } from '../../../emulator';
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { runNode } from '../../support/setup';
import { createLinkParams, linkTokens, outsideLinks } from './linkSetup';

const ctx = usePartnerEmulator();

describe('Credential → Create Link', () => {
	it('outputs the link, the sharing id, the status and a computed expiry (48 h after dateCreated)', async () => {
		const run = await runNode(ctx.emu, createLinkParams());
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(['POST /credentials/grant-access-sharing']);
		expect(ctx.emu.requests.at(-1)?.body).toEqual({ partnerId: 201, title: 'Acme CRM' });
		const out = run.json[0];
		const link = ctx.emu.links.get(out.sharingId as number)!;
		expect(out).toMatchObject({
			partnerId: 201,
			title: 'Acme CRM',
			state: 'waiting',
			connected: false,
			credentialId: null,
			status: 0,
			link: ctx.emu.links.url(link.id),
			expiresAtNote: 'computed: 48 h after dateCreated',
		});
		expect(Date.parse(out.expiresAt as string)).toBe(
			Date.parse(out.dateCreated as string) + LINK_LIFETIME_MS,
		);
		expect(out).not.toHaveProperty('token');
		expect(outsideLinks(run)).not.toContain(link.token);
	});

	it('computes the expiry from now when dateCreated is null, and says so', async () => {
		ctx.emu.setVariants({ linkDateCreated: 'null' });
		const before = Date.now();
		const run = await runNode(ctx.emu, createLinkParams());
		const out = run.json[0];
		expect(out.dateCreated).toBeNull();
		expect(out.expiresAtNote).toMatch(/from when this node received the link/);
		const expires = Date.parse(out.expiresAt as string);
		expect(expires).toBeGreaterThanOrEqual(before + LINK_LIFETIME_MS);
		expect(expires).toBeLessThanOrEqual(Date.now() + LINK_LIFETIME_MS);
	});

	it.each([
		['bare', { bare: true }],
		['string ids', { stringIds: true }],
		['string statuses', { statusShape: 'string' as const }],
		['word statuses', { statusShape: 'word' as const }],
		['extra fields', { connectionExtraFields: true }],
		['success flag as text', { successFlag: 'string' as const }],
	])('reads the %s variant', async (_name, variants) => {
		ctx.emu.setVariants(variants);
		const run = await runNode(ctx.emu, createLinkParams());
		expect(run.error).toBeUndefined();
		const id = ctx.emu.links.list()[0].id;
		expect(run.json[0]).toMatchObject({
			sharingId: id,
			state: 'waiting',
			status: 0,
			partnerId: 201,
		});
		expect(run.json[0].link).toBe(ctx.emu.links.url(id));
	});

	it.each([
		['App ID', { linkPartnerId: 0 }, /App ID must be a positive whole number/],
		['App ID', { linkPartnerId: 'acme' }, /App ID must be a positive whole number/],
		['App ID', { linkPartnerId: -3 }, /App ID must be a positive whole number/],
		['Connection Name', { linkTitle: '  ' }, /Connection Name is empty/],
		['Connection Name', { linkTitle: 'x'.repeat(300) }, /Connection Name is 300 characters/],
	])('refuses a bad %s before any request', async (_name, extra, message) => {
		const run = await runNode(ctx.emu, createLinkParams(extra));
		expect(run.error?.message).toMatch(message);
		expect(run.calls).toEqual([]);
	});

	it("passes on the service's refusal of an unknown partner", async () => {
		const run = await runNode(ctx.emu, createLinkParams({ linkPartnerId: 999 }));
		expect(run.error?.message).toMatch(/unknown partner/);
		expect(run.calls).toEqual(['POST /credentials/grant-access-sharing']);
	});

	it('partner mode: creates the link as the End User ID, with the minted token', async () => {
		await addUsers(ctx.emu, ['cust-1']);
		const run = await runPartner(ctx.emu, createLinkParams());
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([
			expect.stringMatching(/^POST \/wl\/.+\/get-user-session-token$/),
			'POST /credentials/grant-access-sharing',
		]);
		const made = ctx.emu.requests.at(-1)!;
		expect(made.user).toMatch(/cust-1$/);
		expect(ctx.emu.links.list()[0].userId).toBe(made.user);
		expect(run.json[0].link).toBe(ctx.emu.links.url(run.json[0].sharingId as number));
		expect(outsideLinks(run)).not.toContain(linkTokens(ctx.emu)[0]);
	});
});
