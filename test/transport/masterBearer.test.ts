/**
 * update-user-data in partner mode: the master token as Bearer (Albato's page); on Auto, refused,
 * once with the end user's own token, which later calls then start with; a chosen master-token form
 * sends Bearer only. credential/refreshUserData.test.ts tests the operation itself.
 */
import {
	addUsers,
	partnerCredential,
	runPartner,
	usePartnerEmulator,
} from '../support/partnerSetup';

const ctx = usePartnerEmulator();
beforeEach(async () => await addUsers(ctx.emu, ['cust-1']));

async function partnerConnection(): Promise<number> {
	const link = {
		resource: 'credential',
		operation: 'createLink',
		linkPartnerId: 201,
		linkTitle: 'CRM',
	};
	const made = await runPartner(ctx.emu, link);
	return ctx.emu.links.complete(made.json[0].sharingId as number).id;
}

const refresh = (connectionId: number) => ({
	resource: 'credential',
	operation: 'refreshUserData',
	connectionPartnerId: 201,
	connectionId,
});

/** Whose token the emulator took: the partner's, an end user's, or none (refused). */
const whose = (user: string | null) =>
	user === null ? 'refused' : user.startsWith('partner:') ? 'master' : 'endUser';

/** The update-user-data calls since `from`: the form, whose token was taken, the status. */
const updates = (from: number) =>
	ctx.emu.requests
		.slice(from)
		.filter((r) => r.path.endsWith('/update-user-data'))
		.map((r) => `${r.auth} ${whose(r.user)} ${r.status}`);

it('the master token as Bearer, where it is taken', async () => {
	const id = await partnerConnection();
	ctx.emu.setVariants({ updateUserDataAuth: 'master' });
	const from = ctx.emu.requests.length;
	expect((await runPartner(ctx.emu, refresh(id))).error).toBeUndefined();
	expect(updates(from)).toEqual(['bearer master 200']);
});

it("on Auto, where only the end user's token is taken: once with it, then with it from the start", async () => {
	const id = await partnerConnection();
	ctx.emu.setVariants({ updateUserDataAuth: 'user' });
	const from = ctx.emu.requests.length;
	expect((await runPartner(ctx.emu, refresh(id))).error).toBeUndefined();
	expect(updates(from)).toEqual(['bearer refused 401', 'bearer endUser 200']);
	const again = ctx.emu.requests.length;
	expect((await runPartner(ctx.emu, refresh(id))).error).toBeUndefined();
	expect(updates(again)).toEqual(['bearer endUser 200']);
});

it('a chosen master-token form: Bearer only, nothing found out', async () => {
	const id = await partnerConnection();
	ctx.emu.setVariants({ updateUserDataAuth: 'user' });
	const credential = partnerCredential(ctx.emu, { headerForm: 'basicUsername' });
	const from = ctx.emu.requests.length;
	expect((await runPartner(ctx.emu, refresh(id), { credential })).error?.httpCode).toBe('401');
	expect(updates(from)).toEqual(['bearer refused 401']);
});

it('on Auto, refused with both tokens: one error naming each and Options → Authorize As', async () => {
	const id = await partnerConnection();
	ctx.emu.faults.add({ path: /\/update-user-data$/, status: 401, times: 10 });
	const run = await runPartner(ctx.emu, refresh(id));
	expect(run.error?.description).toMatch(
		/then as the end user's token .*\(401\)\. Check the token, or set "Options → Authorize As" in this node/,
	);
});

it('what one partner credential found out is not what another starts with', async () => {
	const id = await partnerConnection();
	ctx.emu.setVariants({ updateUserDataAuth: 'user' });
	expect((await runPartner(ctx.emu, refresh(id))).error).toBeUndefined();
	// Another credential (another n8n credential id): it finds the form out for itself.
	const from = ctx.emu.requests.length;
	const other = { credentialId: 'partner-credential-2' };
	expect((await runPartner(ctx.emu, refresh(id), other)).error).toBeUndefined();
	expect(updates(from)).toEqual(['bearer refused 401', 'bearer endUser 200']);
});

describe("once the end user's token is the one taken", () => {
	async function learnt(): Promise<number> {
		const id = await partnerConnection();
		ctx.emu.setVariants({ updateUserDataAuth: 'user' });
		expect((await runPartner(ctx.emu, refresh(id))).error).toBeUndefined();
		return id;
	}

	it('a service quoting the Authorization header shows no token of the end user', async () => {
		const id = await learnt();
		ctx.emu.faults.add({ path: /\/update-user-data$/, status: 400, echoAuthorization: true });
		const run = await runPartner(ctx.emu, refresh(id));
		expect(run.error?.message).toMatch(
			/^Emulated fault: 400 \(Authorization: Bearer (\[redacted\])+\)$/,
		);
	});

	it('refused even after a fresh token: the error names the token tried and Authorize As', async () => {
		const id = await learnt();
		ctx.emu.faults.add({ path: /\/update-user-data$/, status: 401, times: 10 });
		const from = ctx.emu.requests.length;
		const run = await runPartner(ctx.emu, refresh(id));
		expect(updates(from)).toEqual(['bearer refused 401', 'bearer refused 401']);
		expect(run.error?.description).toMatch(
			/refused the token sent as the end user's token .*\(401\)\. Check the token, or set "Options → Authorize As" in this node/,
		);
	});
});
