/**
 * Credential → Get Link Status, Renew Link, Delete Link; a link that expires, is renewed, or is
 * used twice; and the chain from link to a started installation that uses the linked connection.
 */
import { LINK_LIFETIME_MS } from '../../../emulator';
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { byId, runNode } from '../../support/setup';
import { expectRenewed, linkMade, outsideLinks, sharingParams } from './linkSetup';

const ctx = usePartnerEmulator();

describe('Credential → Get Link Status', () => {
	it('reads waiting, then connected with the credentialId once the customer has connected', async () => {
		const id = await linkMade(ctx.emu);
		const waiting = await runNode(ctx.emu, sharingParams('getLinkStatus', id));
		expect(waiting.calls).toEqual([`GET /credentials/grant-access-sharing/${id}`]);
		expect(waiting.json[0]).toMatchObject({
			sharingId: id,
			state: 'waiting',
			connected: false,
			credentialId: null,
		});
		expect(waiting.json[0]).not.toHaveProperty('link');
		const credential = ctx.emu.links.complete(id);
		const connected = await runNode(ctx.emu, sharingParams('getLinkStatus', id));
		expect(connected.json[0]).toMatchObject({
			state: 'connected',
			connected: true,
			credentialId: credential.id,
			status: 1,
		});
		expect(outsideLinks(connected)).not.toContain(ctx.emu.links.get(id)!.token);
	});

	it.each([
		['string ids', { stringIds: true }],
		['word statuses', { statusShape: 'word' as const }],
		['string statuses', { statusShape: 'string' as const }],
		['bare', { bare: true }],
		['extra fields', { connectionExtraFields: true }],
		['null dateCreated', { linkDateCreated: 'null' as const }],
	])('reads connected in the %s variant', async (_name, variants) => {
		const id = await linkMade(ctx.emu);
		const credential = ctx.emu.links.complete(id);
		ctx.emu.setVariants(variants);
		const run = await runNode(ctx.emu, sharingParams('getLinkStatus', id));
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ state: 'connected', credentialId: credential.id });
	});

	it('reads an expired link as expired when the service says so (variant), else waiting', async () => {
		const id = await linkMade(ctx.emu);
		ctx.emu.clock.advance(LINK_LIFETIME_MS + 1000);
		const silent = await runNode(ctx.emu, sharingParams('getLinkStatus', id));
		expect(silent.json[0].state).toBe('waiting');
		// dateCreated is given to the second.
		expect(
			Math.abs(ctx.emu.links.expiresAt(id) - Date.parse(silent.json[0].expiresAt as string)),
		).toBeLessThan(1000);
		ctx.emu.setVariants({ linkExpiredStatus: 'expired' });
		const told = await runNode(ctx.emu, sharingParams('getLinkStatus', id));
		expect(told.json[0]).toMatchObject({ state: 'expired', connected: false, status: 2 });
	});

	it("refuses a bad Sharing ID before any request, and reports another user's link as not found", async () => {
		for (const bad of [0, 'abc', -2, '={{ "" }}']) {
			const run = await runNode(ctx.emu, sharingParams('getLinkStatus', bad));
			expect(run.error?.message).toMatch(
				bad === '={{ "" }}'
					? /^Sharing ID is empty: give its ID \(e\.g\. 61\)$/
					: /Sharing ID must be a positive whole number/,
			);
			expect(run.calls).toEqual([]);
		}
		const id = await linkMade(ctx.emu);
		const other = await runNode(ctx.emu, sharingParams('getLinkStatus', id), {
			token: ctx.emu.token({ sub: 'user-2' }),
		});
		expect(other.error?.message).toMatch(/not found/i);
	});
});

describe('Credential → Renew Link', () => {
	it('gives an expired link a new token and 48 h; the new link can then be used, once', async () => {
		const id = await linkMade(ctx.emu);
		const oldToken = ctx.emu.links.get(id)!.token;
		ctx.emu.clock.advance(LINK_LIFETIME_MS + 1000);
		expect(() => ctx.emu.links.complete(id)).toThrow(/expired/);
		const run = await runNode(ctx.emu, sharingParams('renewLink', id));
		expect(run.calls).toEqual([`PUT /credentials/grant-access-sharing/${id}`]);
		expectRenewed(ctx.emu, run, id, oldToken);
		ctx.emu.links.complete(id);
		expect(() => ctx.emu.links.complete(id)).toThrow(/already used/);
	});

	it('is refused for a link already used (422), with the service message', async () => {
		const id = await linkMade(ctx.emu);
		ctx.emu.links.complete(id);
		const run = await runNode(ctx.emu, sharingParams('renewLink', id));
		expect(run.error?.message).toMatch(/already used/);
		expect(run.calls).toEqual([`PUT /credentials/grant-access-sharing/${id}`]);
	});
});

describe('Credential → Delete Link', () => {
	it.each([
		['200 {id}', {}],
		['204 with no body', { linkDeleteAnswer: 'noContent' as const }],
	])('deletes on %s', async (_name, variants) => {
		const id = await linkMade(ctx.emu);
		ctx.emu.setVariants(variants);
		const run = await runNode(
			ctx.emu,
			sharingParams('deleteLink', id, { confirmDeleteLink: true }),
		);
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([{ sharingId: id, deleted: true }]);
		expect(run.calls).toEqual([`DELETE /credentials/grant-access-sharing/${id}`]);
		expect(ctx.emu.links.get(id)).toBeUndefined();
	});

	it('refuses without Confirm Delete Link, before any request', async () => {
		const id = await linkMade(ctx.emu);
		const run = await runNode(ctx.emu, sharingParams('deleteLink', id));
		expect(run.error?.message).toMatch(/Confirm Delete Link is off/);
		expect(run.calls).toEqual([]);
		expect(ctx.emu.links.get(id)).toBeDefined();
	});
});

describe('from link to a started installation', () => {
	it.each([
		['as text', (id: number) => String(id)],
		['as a number', (id: number) => id],
	])('the connection made by link is offered and installed %s', async (_name, value) => {
		const id = await linkMade(ctx.emu);
		const credential = ctx.emu.links.complete(id);
		const settings = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getConnectionSettings',
			solutionId: byId('id', 101),
		});
		expect(JSON.stringify(settings.json)).toContain(String(credential.id));
		const status = await runNode(ctx.emu, sharingParams('getLinkStatus', id));
		const install = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'create',
			solutionId: byId('id', 101),
			title: 'Acme onboarding',
			connectionSettingsMode: 'json',
			credentialData: JSON.stringify({
				crm: value(status.json[0].credentialId as number),
				mailer: 'mailchimp',
			}),
			templateIds: [1011],
		});
		expect(install.error).toBeUndefined();
		const installationId = install.json[0].id as number;
		const sent = ctx.emu.requests.find(
			(r) => r.method === 'POST' && r.path === '/solution/101/installation',
		);
		expect((sent?.body as { credentialData: Record<string, unknown> }).credentialData.crm).toBe(
			String(credential.id),
		);
		const start = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'start',
			installationId: byId('id', installationId),
		});
		expect(start.error).toBeUndefined();
		expect(ctx.emu.state.installations.get(installationId)?.status).toBe(1);
	});
});

describe('partner mode', () => {
	it('status, renew and delete act as the End User ID', async () => {
		await addUsers(ctx.emu, ['cust-1']);
		const made = await runPartner(ctx.emu, {
			resource: 'credential',
			operation: 'createLink',
			linkPartnerId: 201,
			linkTitle: 'CRM',
		});
		const id = made.json[0].sharingId as number;
		for (const [operation, extra] of [
			['getLinkStatus', {}],
			['renewLink', {}],
			['deleteLink', { confirmDeleteLink: true }],
		] as const) {
			const run = await runPartner(ctx.emu, sharingParams(operation, id, extra));
			expect(run.error).toBeUndefined();
			expect(run.calls.at(-1)).toMatch(new RegExp(`/credentials/grant-access-sharing/${id}$`));
			expect(ctx.emu.requests.at(-1)?.user).toMatch(/cust-1$/);
		}
	});
});
