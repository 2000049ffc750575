/**
 * A Stop (or a workflow timeout) between the pause and the restart: n8n aborts every request of the
 * cancelled execution, but the PLAY owed to the customer is still sent, so the installation is not
 * left paused. Nothing else is sent once the execution is cancelled, and nothing is retried.
 */
import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { runWorkflow } from '../../../harness';
import { partnerCredential } from '../../support/partnerSetup';
import { guardedUpdateFromItems, NODE_NAME, useEmulator } from '../../support/setup';
import { customerWithTwoAutomations } from '../../support/sweeps';

const ctx = useEmulator();

const ACME = '/solution/installation/5001';
const SUBJECT = { installation: 5001, bundle: 7001, step: 9002, values: { subject: 'Stopped' } };
const TAG = { installation: 5001, bundle: 7002, step: 9004, values: { tag: 'never sent' } };

/** Resolves once the emulator has received this call (its log is written on arrival). */
async function received(method: string, path: string) {
	const seen = ctx.emu.requests.length;
	while (!ctx.emu.requests.slice(seen).some((e) => e.method === method && e.path === path))
		await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * Bundle Data → Update of `items` (Pause, Update, Then Start Again), stopped when `cancel` resolves;
 * with `partner`, as the Partner API credential's end user `customer` of each item.
 */
async function updateStopped(items: object[], cancel: Promise<unknown>, partner = false) {
	const seen = ctx.emu.requests.length;
	const parameters = guardedUpdateFromItems({ requestOptions: { maxRetries: 3, concurrency: 1 } });
	const result = await runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [
			{
				name: NODE_NAME,
				type: 'albatoSolutions',
				parameters: partner
					? { ...parameters, authentication: 'partnerApi', endUserId: '={{ $json.customer }}' }
					: parameters,
				...(partner
					? { credentials: { albatoPartnerApi: { id: 'partner-1', name: 'Partner 1' } } }
					: {}),
			},
		],
		inputItems: items as never,
		credentials: partner
			? { albatoPartnerApi: partnerCredential(ctx.emu) }
			: { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.emu.token() } },
		cancel,
	});
	const calls = ctx.emu.requests.slice(seen).map((entry) => `${entry.method} ${entry.path}`);
	return { result, calls };
}

describe('a Stop between the pause and the restart', () => {
	it('the PLAY owed is still sent; the next update and every retry are not', async () => {
		// The PUT takes a while; the execution is stopped while it is in flight.
		ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9002', delayMs: 600 });
		const { result, calls } = await updateStopped(
			[SUBJECT, TAG],
			received('PUT', '/bundle/data/9002'),
		);
		expect(calls).toEqual([
			`GET ${ACME}`,
			`PAUSE ${ACME}`,
			'PUT /bundle/data/9002',
			`PLAY ${ACME}`,
		]);
		expect(result.run.status).toBe('canceled');
		expect(ctx.emu.state.installations.get(5001)?.status).toBe(1);
	});

	it.each([
		['its token', false],
		['a fresh token after the PLAY is refused with 401', true],
	])(
		"in partner mode, the PLAY goes with the customer's own token (%s)",
		async (_name, refused) => {
			// A customer of its own: the process keeps tokens across executions.
			const customer = refused ? 'c-stop-refused' : 'c-stop';
			const [bundleId] = await customerWithTwoAutomations(ctx.emu, customer);
			const bundle = ctx.emu.state.bundles.get(bundleId)!;
			const installation = ctx.emu.state.installations.get(bundle.installationId)!;
			installation.status = 1;
			const path = `/solution/installation/${installation.id}`;
			const step = bundle.stepIds.at(-1)!;
			ctx.emu.faults.add({ method: 'PUT', path: `/bundle/data/${step}`, delayMs: 600 });
			if (refused) ctx.emu.faults.add({ method: 'PLAY', path, status: 401 });
			const item = {
				customer,
				installation: installation.id,
				bundle: bundleId,
				step,
				values: { subject: 'Stopped' },
			};
			const { result, calls } = await updateStopped(
				[item],
				received('PUT', `/bundle/data/${step}`),
				true,
			);
			const token = 'POST /wl/acme-saas/get-user-session-token';
			expect(calls).toEqual([
				token,
				`GET ${path}`,
				`PAUSE ${path}`,
				`PUT /bundle/data/${step}`,
				...(refused ? [`PLAY ${path}`, token] : []),
				`PLAY ${path}`,
			]);
			expect(result.run.status).toBe('canceled');
			expect(ctx.emu.requests.at(-1)).toMatchObject({
				method: 'PLAY',
				user: `acme-saas:${customer}`,
			});
			expect(installation.status).toBe(1);
		},
	);
});
