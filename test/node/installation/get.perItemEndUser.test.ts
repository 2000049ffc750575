/**
 * Partner mode with End User ID per item: an installation one customer owns, read for another, is
 * a 404 that names the end user this item acted as (the picker listed the first item's).
 */
import { addUsers, installFor, runPartner, usePartnerEmulator } from '../../support/partnerSetup';

const ctx = usePartnerEmulator();

it("a later item's 404 names that item's end user", async () => {
	await addUsers(ctx.emu, ['c-1', 'c-2']);
	await installFor(ctx.emu, 'c-1', 'Leads');
	const id = [...ctx.emu.state.installations.values()].find((i) => i.title === 'Leads')!.id;
	const run = await runPartner(
		ctx.emu,
		{
			resource: 'installation',
			operation: 'get',
			installationId: { __rl: true, mode: 'list', value: String(id) },
		},
		{ inputItems: [{ customer: 'c-1' }, { customer: 'c-2' }], continueOnFail: true },
	);
	expect(run.json[0].id).toBe(id);
	expect(run.json[1]).toMatchObject({ httpCode: '404' });
	expect(String(run.json[1].message)).toMatch(
		/→ 404\. Check the ID: it does not exist or belongs to another end user than "c-2" \(this item's End User ID\)\.$/,
	);
});
