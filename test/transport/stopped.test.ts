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

const LIST = '/solution/installation';
const TOKEN = 'POST /wl/acme-saas/get-user-session-token';
const NOT_SENT = 'The request failed before the service answered: the execution was canceled';
const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once the emulator has received a call to `path`. */
async function received(path: string) {
	while (!ctx.emu.requests.some((entry) => entry.path === path)) await sleep(5);
}

/** Installation → Get Many in partner mode for `customers`, stopped when `cancel` resolves. */
async function listStopped(customers: string[], cancel: Promise<unknown>) {
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
		inputItems: customers.map((customer) => ({ customer })),
		credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
		cancel,
	});
	const calls = ctx.emu.requests.map((entry) => `${entry.method} ${entry.path}`);
	const errors = result.output(NODE_NAME).map((item) => item.json);
	return { status: result.run.status, calls, errors };
}

it("after a Stop, the next customer's token is not asked for: its item fails as not sent", async () => {
	ctx.emu.faults.add({ method: 'GET', path: LIST, delayMs: 600 });
	const run = await listStopped(['cust-1', 'cust-2'], received(LIST));
	expect(run.calls).toEqual([TOKEN, `GET ${LIST}`]);
	expect(run.errors).toHaveLength(2);
	expect(run.errors[1]).toEqual({
		error: `${NOT_SENT}, so it was not sent`,
		message: `${TOKEN}. The execution was canceled (Stop, or a timeout) before it was sent: nothing was applied.`,
		httpCode: 'CANCELLED_BEFORE_SENDING',
	});
	expect(run.status).toBe('canceled');
});

it('a Stop while a retry waits: the retry is not sent', async () => {
	ctx.emu.faults.add({ method: 'GET', path: LIST, status: 503, retryAfterSeconds: 1 });
	const run = await listStopped(
		['cust-1'],
		received(LIST).then(async () => await sleep(300)),
	);
	expect(run.calls).toEqual([TOKEN, `GET ${LIST}`]);
	expect(run.errors).toEqual([
		{
			error: `${NOT_SENT}, so it was not sent again`,
			message: `GET ${LIST} after 1 retry. The execution was canceled (Stop, or a timeout), so it was not tried again.`,
			httpCode: 'CANCELLED_BEFORE_RETRY',
		},
	]);
	expect(run.status).toBe('canceled');
});
