/**
 * A Stop (or a workflow timeout) in partner mode: the request in flight is aborted and nothing more
 * is sent, not even the next end user's token call (only what is owed goes; see
 * test/node/bundleData/update.cancelled.test.ts). The items left fail as not sent.
 */
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { runWorkflow } from '../../harness';
import { addUsers, partnerCredential, usePartnerEmulator } from '../support/partnerSetup';
import { NODE_NAME } from '../support/setup';

const ctx = usePartnerEmulator();
beforeEach(async () => await addUsers(ctx.emu, ['cust-1', 'cust-2']));

/** Resolves once the emulator has received a call to `path`. */
async function received(path: string) {
	while (!ctx.emu.requests.some((entry) => entry.path === path))
		await new Promise((resolve) => setTimeout(resolve, 5));
}

it("after a Stop, the next customer's token is not asked for: its item fails as not sent", async () => {
	ctx.emu.faults.add({ method: 'GET', path: '/solution/installation', delayMs: 600 });
	const result = await runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [
			{
				name: NODE_NAME,
				type: 'albatoSolutions',
				parameters: {
					authentication: 'partnerApi',
					endUserId: '={{ $json.customer }}',
					resource: 'installation',
					operation: 'getAll',
					returnAll: true,
					requestOptions: { concurrency: 1 },
				},
				credentials: { albatoPartnerApi: { id: 'partner-1', name: 'Partner 1' } },
				onError: 'continueRegularOutput',
			},
		],
		inputItems: [{ customer: 'cust-1' }, { customer: 'cust-2' }],
		credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
		cancel: received('/solution/installation'),
	});
	const calls = ctx.emu.requests.map((entry) => `${entry.method} ${entry.path}`);
	expect(calls).toEqual([
		'POST /wl/acme-saas/get-user-session-token',
		'GET /solution/installation',
	]);
	const errors = result.output(NODE_NAME).map((item) => String(item.json.message));
	expect(errors).toHaveLength(2);
	expect(errors[1]).toMatch(/canceled/);
	expect(result.run.status).toBe('canceled');
});
