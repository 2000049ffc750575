/** End User → Get Token: whether and until when, lookup by e-mail, an unknown user. */

import { addUsers, runPartner, tokenCalls, usePartnerEmulator } from '../../support/partnerSetup';

const ctx = usePartnerEmulator();

const items = (...customers: string[]) => customers.map((customer) => ({ customer }));

describe('End User → Get Token', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));

	it('says whether and until when, without the token unless asked', async () => {
		const run = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'getToken' },
			{ inputItems: items('c-1') },
		);
		expect(run.json[0]).toEqual({
			endUserId: 'c-1',
			hasToken: true,
			tokenValidUntil: expect.stringMatching(/^\d{4}-/),
		});
		const shown = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'getToken', options: { includeToken: true } },
			{ inputItems: items('c-1') },
		);
		expect(shown.json[0].token).toMatch(/^eyJ/);
		expect(tokenCalls(shown)).toBe(0); // the cached token, still valid
	});

	it('can look the user up by e-mail', async () => {
		const email = [...ctx.emu.state.endUsers.values()][0].email;
		const run = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'getToken', options: { lookUpBy: 'email' } },
			{ inputItems: [{ customer: email }] },
		);
		expect(run.error).toBeUndefined();
		expect(ctx.emu.requests.at(-1)?.body).toEqual({ email });
		expect(run.json[0].hasToken).toBe(true);
	});

	it("an unknown user: the service's 404 with a hint", async () => {
		const run = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'getToken' },
			{ inputItems: items('nobody') },
		);
		expect(run.error?.message).toMatch(/End user with id "nobody" not found/);
		expect(run.error?.httpCode).toBe('404');
		expect(run.error?.description).toMatch(/create it first \(End User → Create\)/);
	});
});
