/**
 * The billing section of test/apiCoverage.manifest.json: every partner operation
 * (test/support/operations.ts) runs once against the emulator; the /wl billing endpoints it reaches
 * must be exactly those its row names, and all of them together exactly the manifest's.
 */
import manifest from '../../apiCoverage.manifest.json';
import { endpointOf, OPERATIONS, prepare, runOperation } from '../../support/operations';
import { usePartnerEmulator } from '../../support/partnerSetup';

const ctx = usePartnerEmulator();

const BILLING_CALLS = manifest.billing.endpoints.map((entry) => entry.call);
const isBilling = (call: string) => BILLING_CALLS.includes(call);
const PARTNER_ROWS = OPERATIONS.filter((row) => row.credential === 'partner');

describe('API coverage: billing (outside the spec)', () => {
	it('reaches exactly the manifest’s billing endpoints, each from the operations whose row names it', async () => {
		const reached = new Set<string>();
		for (const row of PARTNER_ROWS) {
			ctx.emu.reset();
			const run = await runOperation(ctx.emu, row, await prepare(ctx.emu, row));
			expect(run.error).toBeUndefined();
			const billing = run.calls.map((call) => endpointOf(ctx.emu, call)).filter(isBilling);
			expect([row.key, [...new Set(billing)].sort()]).toEqual([
				row.key,
				row.calls.filter(isBilling).sort(),
			]);
			billing.forEach((call) => reached.add(call));
		}
		expect([...reached].sort()).toEqual([...BILLING_CALLS].sort());
	});
});
