/**
 * The billing section of test/apiCoverage.manifest.json (issue 31): each billing operation runs
 * once against the emulator, and the /wl billing endpoints it reaches must be exactly the
 * manifest's map.
 */
import manifest from '../../apiCoverage.manifest.json';
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';

const ctx = usePartnerEmulator();

const BILLING = /\/(list-plans|set-user-plan|block-user-plan|add-user-plan-transactions)$/;
const operations: Record<string, Record<string, unknown>> = {
	'endUser.get': { options: { includePlanUsage: true } },
	'endUser.getPlans': {},
	'endUser.setPlan': { planId: 23 },
	'endUser.addTransactions': { transactionCount: 100, confirmAddTransactions: true },
	'endUser.block': { confirmBlock: true },
};

describe('API coverage: billing (outside the spec)', () => {
	it('reaches exactly the manifest’s billing endpoints, from its operations', async () => {
		const reached = new Map<string, Set<string>>();
		for (const [name, parameters] of Object.entries(operations)) {
			ctx.emu.reset();
			await addUsers(ctx.emu, ['coverage']);
			const [resource, operation] = name.split('.');
			const run = await runPartner(
				ctx.emu,
				{ resource, operation, ...parameters },
				{ inputItems: [{ customer: 'coverage' }] },
			);
			expect(run.error).toBeUndefined();
			for (const call of run.calls.filter((c) => BILLING.test(c))) {
				const endpoint = call.replace(`/wl/${ctx.emu.partner.name}/`, '/wl/{partner}/');
				reached.set(endpoint, (reached.get(endpoint) ?? new Set()).add(name));
			}
		}
		const actual = Object.fromEntries([...reached].map(([call, n]) => [call, [...n].sort()]));
		const expected = Object.fromEntries(
			manifest.billing.endpoints.map((entry) => [entry.call, [...entry.operations].sort()]),
		);
		expect(actual).toEqual(expected);
	});
});
