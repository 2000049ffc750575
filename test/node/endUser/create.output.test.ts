/**
 * End User → Create in n8n-core against the emulator: one output shape, and a hint for duplicates.
 */
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';

const ctx = usePartnerEmulator();
const items = (...ids: string[]) => ids.map((customer) => ({ customer }));

describe('End User → Create output', () => {
	it('created and existing users have the same keys; albatoUserId is the number add-user gave', async () => {
		await addUsers(ctx.emu, ['old-1']);
		const run = await runPartner(
			ctx.emu,
			{
				resource: 'endUser',
				operation: 'create',
				options: { ifExists: 'useExisting' },
				requestOptions: { concurrency: 1 },
			},
			{ inputItems: items('old-1', 'new-1') },
		);
		expect(run.error).toBeUndefined();
		const [existing, created] = run.json;
		expect(Object.keys(existing)).toEqual(Object.keys(created));
		expect(existing).toMatchObject({ endUserId: 'old-1', created: false });
		expect(existing.albatoUserId).toEqual(expect.any(Number));
		expect(created).toMatchObject({ endUserId: 'new-1', created: true });
		expect(created.albatoUserId).toEqual(expect.any(Number));
		expect(created).not.toHaveProperty('id');
		expect(created).not.toHaveProperty('sessionTokenValidUntil');
		expect(String(created.tokenValidUntil)).toMatch(/^\d{4}-\d\d-\d\dT/);
	});

	it('a repeat with "Continue With the Existing User" fills email, albatoUserId, planId and trxLimit from the profile', async () => {
		const first = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'create', options: { ifExists: 'useExisting' } },
			{ inputItems: items('twice-1') },
		);
		const profile = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'get' },
			{ inputItems: items('twice-1') },
		);
		const repeat = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'create', options: { ifExists: 'useExisting' } },
			{ inputItems: items('twice-1') },
		);
		expect(repeat.error).toBeUndefined();
		const [again] = repeat.json;
		expect(again.created).toBe(false);
		for (const key of ['email', 'albatoUserId', 'planId', 'trxLimit']) {
			expect(again[key]).not.toBeNull();
			expect(again[key]).toEqual(profile.json[0][key]);
		}
		expect(again.albatoUserId).toBe(first.json[0].albatoUserId);
		expect(Object.keys(again)).toEqual(Object.keys(first.json[0]));
		// The token minted by the first run is cached: add-user (refused), then the profile.
		expect(repeat.calls).toEqual([
			'POST /wl/acme-saas/add-user',
			'POST /wl/acme-saas/get-user-profile',
		]);
		expect(repeat.serialized).not.toMatch(/eyJhbGci|perm_/);
	});

	it('a duplicate with "If the User Exists: Fail" points at the option that continues', async () => {
		await addUsers(ctx.emu, ['dup-1']);
		const run = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'create' },
			{ inputItems: items('dup-1') },
		);
		expect(run.error?.message).toBe('id: A user with id "dup-1" already exists');
		// The advice leads: run twice, that is what a new partner needs first.
		expect(run.error?.description).toMatch(
			/^If this customer may already exist \(a second run, a webhook delivered twice\), set Options → If the User Exists to "Continue With the Existing User"\. POST \/wl\/acme-saas\/add-user → 400/,
		);
		expect(run.calls).toEqual(['POST /wl/acme-saas/add-user']);
	});
});
