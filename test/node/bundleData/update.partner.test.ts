/**
 * Bundle Data → Update with "Pause, Update, Then Start Again" in partner mode: every call of an
 * installation's group, including the read that confirms a refused PUT, acts as the End User ID of
 * that group's items, not of the first input item.
 */
import { addUsers, installFor, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { guardedUpdateFromItems } from '../../support/setup';

const ctx = usePartnerEmulator();

describe('Bundle Data → Update in partner mode', () => {
	it('a PUT refused as active on an installation read paused: the confirming read is made as its own end user', async () => {
		await addUsers(ctx.emu, ['cust-1', 'cust-2']);
		await installFor(ctx.emu, 'cust-2', 'Leads for cust-2');
		const [installation] = [...ctx.emu.state.installations.values()].filter(
			(candidate) => candidate.title === 'Leads for cust-2',
		);
		installation.status = 0; // paused at the read
		const bundle = ctx.emu.state.bundles.get(installation.bundleIds[0])!;
		const step = bundle.stepIds[1];
		const path = `/solution/installation/${installation.id}`;
		ctx.emu.requests.length = 0;
		// Started again by someone else while the PUT is on its way: refused as active.
		ctx.emu.faults.add({ method: 'PUT', path: `/bundle/data/${step}`, delayMs: 200 });
		const seen = ctx.emu.requests.length;
		const timer = setInterval(() => {
			if (ctx.emu.requests.slice(seen).some((entry) => entry.path === `/bundle/data/${step}`)) {
				clearInterval(timer);
				installation.status = 1;
			}
		}, 2);
		const run = await runPartner(
			ctx.emu,
			guardedUpdateFromItems({
				requestOptions: { maxRetries: 0, retryBudget: 10, concurrency: 1 },
			}),
			{
				// Item 0 (another end user) cannot see ACME's installation: it fails on its own.
				inputItems: [
					{
						customer: 'cust-1',
						installation: 5001,
						bundle: 7001,
						step: 9002,
						values: { subject: 'x' },
					},
					{
						customer: 'cust-2',
						installation: installation.id,
						bundle: bundle.id,
						step,
						values: { subject: 'Partner proof' },
					},
				],
				continueOnFail: true,
			},
		).finally(() => clearInterval(timer));
		expect(run.json[0].httpCode).toBe('404');
		expect(run.json[1]).toMatchObject({ id: step, pausedForUpdate: true, installationStatus: 1 });
		const own = ctx.emu.requests
			.filter((entry) => entry.path === path || entry.path === `/bundle/data/${step}`)
			.map((entry) => `${entry.method} ${entry.path} ${entry.status} ${entry.user}`);
		const user = 'acme-saas:cust-2';
		expect(own).toEqual([
			`GET ${path} 200 ${user}`,
			`PUT /bundle/data/${step} 422 ${user}`,
			`GET ${path} 200 ${user}`,
			`PAUSE ${path} 200 ${user}`,
			`PUT /bundle/data/${step} 200 ${user}`,
			`PLAY ${path} 200 ${user}`,
		]);
		expect(installation.status).toBe(1);
	});
});
