import { FIXTURE_IDS, VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { byId, runNode, useEmulator } from './setup';

const ctx = useEmulator();

const install = (overrides: Record<string, unknown> = {}) => ({
	resource: 'installation',
	operation: 'create',
	solutionId: byId('list', 101),
	title: 'Initech – lead sync',
	connectionSettingsMode: 'json',
	credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
	templateIds: [1011, 1012],
	...overrides,
});

describe('Installation → Create', () => {
	it('checks the connection settings, then installs once, with the exact body', async () => {
		const run = await runNode(ctx.emu, install());
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({
			id: FIXTURE_IDS.nextInstallation,
			title: 'Initech – lead sync',
			status: 0,
		});
		expect(run.calls).toEqual([
			'GET /solution/101/credentialists',
			'GET /solution/installation',
			'POST /solution/101/installation',
		]);
		expect(ctx.emu.requests.at(-1)!.body).toEqual({
			credentialData: VALID_CREDENTIAL_DATA[101],
			templateIds: [1011, 1012],
			title: 'Initech – lead sync',
		});
	});

	it('installs from the connection-settings mapper and sends settings when given', async () => {
		const run = await runNode(
			ctx.emu,
			install({
				connectionSettingsMode: 'mapper',
				connectionSettings: { mappingMode: 'defineBelow', value: VALID_CREDENTIAL_DATA[101] },
				options: { settings: '{"timezone": "Europe/Berlin"}' },
			}),
		);
		expect(run.error).toBeUndefined();
		expect(ctx.emu.requests.at(-1)!.body).toMatchObject({
			credentialData: VALID_CREDENTIAL_DATA[101],
			settings: { timezone: 'Europe/Berlin' },
		});
	});

	it('refuses a value a step does not offer, naming the step and what it offers, and installs nothing', async () => {
		const run = await runNode(
			ctx.emu,
			install({
				credentialData: '{"crm": "hubspot", "hubspotPipeline": "marketing", "mailer": "mailchimp"}',
			}),
		);
		expect(run.error?.message).toMatch(/hubspotPipeline/);
		expect(run.error?.description).toMatch(/"sales" \(Sales\), "support" \(Support\)/);
		// The service refuses the wrong value; the node then walks the levels to name it.
		expect(new Set(run.calls)).toEqual(new Set(['GET /solution/101/credentialists']));
		expect(ctx.emu.state.installations.has(FIXTURE_IDS.nextInstallation)).toBe(false);
	});

	it('refuses a missing nested step', async () => {
		const run = await runNode(
			ctx.emu,
			install({
				credentialData: '{"crm": "hubspot", "hubspotPipeline": "sales", "mailer": "mailchimp"}',
			}),
		);
		expect(run.error?.message).toMatch(
			/"hubspotStage" \(Stage\) has no value; it offers "new" \(New\), "won" \(Won\)/,
		);
		expect(run.calls.filter((call) => call.startsWith('POST'))).toEqual([]);
	});

	it('auto-selects a single-valued step when asked', async () => {
		const run = await runNode(
			ctx.emu,
			install({
				solutionId: byId('id', 103),
				credentialData: '{"helpdesk": "zendesk", "chat": "slack"}',
				templateIds: [1031],
				options: { autoSelectSingle: true },
			}),
		);
		expect(run.error).toBeUndefined();
		expect((ctx.emu.requests.at(-1)!.body as { credentialData: object }).credentialData).toEqual(
			VALID_CREDENTIAL_DATA[103],
		);
	});

	it('with Refuse Duplicate Title, fails when the title exists and installs nothing', async () => {
		const run = await runNode(
			ctx.emu,
			install({ title: 'Leads for ACME', options: { refuseDuplicateTitle: true } }),
		);
		expect(run.error?.message).toBe(
			'An installation titled "Leads for ACME" already exists (ID 5001)',
		);
		expect(run.calls.some((call) => call.startsWith('POST'))).toBe(false);
	});

	it('passes the service refusal of an unknown template on as a NodeApiError', async () => {
		const run = await runNode(ctx.emu, install({ templateIds: [1021] }));
		expect(run.error?.httpCode).toBe('422');
		expect(run.error?.message).toMatch(/templateIds/);
	});
});

describe('Installation → Get, Get Many, Start, Pause', () => {
	it('Get sends expand literally (the + reaches the service) and returns bundles', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'get',
			installationId: byId('list', 5001),
			includeBundles: true,
		});
		expect(ctx.emu.requests.at(-1)!.rawQuery).toBe('expand=app.templates,+bundles.steps');
		expect(Object.keys(run.json[0].bundles as object)).toEqual(['7001', '7002']);
	});

	it('Get without the option has no bundles', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'get',
			installationId: byId('id', 5002),
		});
		expect(run.json[0].bundles).toBeUndefined();
		expect(ctx.emu.requests.at(-1)!.rawQuery).toBe('');
	});

	it('Get Many lists only the end user’s installations, filtered', async () => {
		const all = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
		});
		expect(all.json.map((installation) => installation.id)).toEqual([5001, 5002]);
		const paused = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'paused' },
		});
		expect(paused.json.map((installation) => installation.id)).toEqual([5002]);
		const other = await runNode(
			ctx.emu,
			{ resource: 'installation', operation: 'getAll', returnAll: true },
			{ token: ctx.emu.token({ sub: 'user-2' }) },
		);
		expect(other.json.map((installation) => installation.id)).toEqual([5003]);
	});

	it('Get Many filters by solution, picked with the solution locator', async () => {
		await runNode(
			ctx.emu,
			install({
				solutionId: byId('id', 102),
				credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[102]),
				templateIds: [1021],
				title: 'Shop',
			}),
		);
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			filters: { solutionId: byId('list', 102) },
		});
		expect(run.json.map((installation) => installation.title)).toEqual(['Shop']);
	});

	it('Get Many filters by status with detail calls when the list has no status', async () => {
		ctx.emu.setVariants({ listWithoutStatus: true });
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'active' },
		});
		expect(run.json.map((installation) => installation.id)).toEqual([5001]);
		expect(run.calls).toEqual([
			'GET /solution/installation',
			'GET /solution/installation/5001',
			'GET /solution/installation/5002',
		]);
	});

	it('Start sends PLAY and Pause sends PAUSE, per item, from expressions', async () => {
		const pause = await runNode(
			ctx.emu,
			{
				resource: 'installation',
				operation: 'pause',
				installationId: byId('id', '={{ $json.id }}'),
			},
			{ inputItems: [{ id: 5001 }, { id: 5002 }] },
		);
		expect(pause.calls).toEqual([
			'PAUSE /solution/installation/5001',
			'PAUSE /solution/installation/5002',
		]);
		expect(pause.json.map((installation) => installation.status)).toEqual([0, 0]);
		expect(pause.pairedItems).toEqual([{ item: 0 }, { item: 1 }]);
		const start = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'start',
			installationId: byId('id', 5002),
		});
		expect(start.calls).toEqual(['PLAY /solution/installation/5002']);
		expect(start.json[0]).toMatchObject({ id: 5002, status: 1 });
		expect(ctx.emu.state.installations.get(5002)!.status).toBe(1);
	});

	it('tolerates string ids and bare bodies', async () => {
		ctx.emu.setVariants({ stringIds: true, bare: true });
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'start',
			installationId: byId('id', 5002),
		});
		expect(run.error).toBeUndefined();
		expect(String(run.json[0].id)).toBe('5002');
	});

	it('another user’s installation is a 404 with a hint', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'start',
			installationId: byId('id', 5003),
		});
		expect(run.error?.httpCode).toBe('404');
		expect(run.error?.description).toMatch(/belongs to another end user/);
		expect(ctx.emu.state.installations.get(5003)!.status).toBe(0);
	});
});
