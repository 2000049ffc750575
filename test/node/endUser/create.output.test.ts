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
		expect(existing).toMatchObject({ endUserId: 'old-1', created: false, albatoUserId: null });
		expect(created).toMatchObject({ endUserId: 'new-1', created: true });
		expect(created.albatoUserId).toEqual(expect.any(Number));
		expect(created).not.toHaveProperty('id');
		expect(created).not.toHaveProperty('sessionTokenValidUntil');
		expect(String(created.tokenValidUntil)).toMatch(/^\d{4}-\d\d-\d\dT/);
	});

	it('a duplicate with "If the User Exists: Fail" points at the option that continues', async () => {
		await addUsers(ctx.emu, ['dup-1']);
		const run = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'create' },
			{ inputItems: items('dup-1') },
		);
		expect(run.error?.message).toBe('id: A user with id "dup-1" already exists');
		expect(run.error?.description).toMatch(
			/Options → If the User Exists to "Continue With the Existing User"/,
		);
		expect(run.calls).toEqual(['POST /wl/acme-saas/add-user']);
	});
});
