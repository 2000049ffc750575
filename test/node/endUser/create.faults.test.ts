/** End User → Create: a 404 on add-user points at Base URL and Partner Name. */

import { runPartner, usePartnerEmulator } from '../../support/partnerSetup';

const ctx = usePartnerEmulator();

const items = (...customers: string[]) => customers.map((customer) => ({ customer }));

it('a 404 on add-user points at Base URL and Partner Name, not at an ID', async () => {
	ctx.emu.faults.add({ path: /add-user$/, status: 404 });
	const run = await runPartner(
		ctx.emu,
		{ resource: 'endUser', operation: 'create' },
		{ inputItems: items('c-9') },
	);
	expect(run.error?.description).toBe(
		'POST /wl/acme-saas/add-user → 404. No such partner endpoint: check Base URL and Partner Name in the Albato Partner API credential "Partner partner-credential-1".',
	);
});
