/**
 * Installation → Create: the settings check, the exact install body, the duplicate-title refusal
 * and the service's refusals.
 */
import { FIXTURE_IDS, VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import { byId, initechInstallParams, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

const install = initechInstallParams;

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
