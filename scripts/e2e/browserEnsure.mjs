// The editor as a new partner meets it, in partner mode with a customer on the emulator:
//
//  1. Installation → Ensure onboarding with pickers and plain typing only: Solution from its picker,
//     Title typed, connection settings and templates picked, and a Field Values entry whose
//     Automation, Step and Field Code come from their pickers (read from the template: the customer
//     has no installation yet) and whose Value is "30" typed as text into a number field. Executed
//     twice: created, with the field 30 (a number) in the emulator; then unchanged.
//  2. The trigger's Run Failed → Fetch Test Event carries the installation's and automation's
//     names (installationTitle, bundleTitle), not null.
//  3. A saved workflow reopened with End User ID as an expression ({{ $json.customerId }}): after
//     "Execute previous nodes" the option lists (Template Names, Field Values → Automation) load.
//  4. Screenshots for the README: docs/screenshots/n8n-ensure-*.png.
//
// Used by run.mjs after the partner-mode editor test (a partner credential exists by then);
// `node scripts/e2e/browserEnsure.mjs <n8n URL> <emulator URL> <emulator token>` runs it alone
// against `npm run dev`.

import os from 'node:os';
import { pathToFileURL } from 'node:url';

import {
	addAction,
	inEditor,
	openLocatorList,
	openOptions,
	openOurNodeInPanel,
	pickFromLocator,
	pickOption,
	refreshMapper,
	runAgainstDev,
	shoot,
	UI_TIMEOUT,
} from './browser.mjs';
import { prepareCustomer } from './partner.mjs';

// Unique per run, so the standalone run can be repeated against one emulator.
const CUSTOMER = `ensure-customer-${Date.now().toString(36)}`;
const SOLUTION = 101;
const TITLE = 'Acme Corp – lead sync';
const TEMPLATE = 'New lead → welcome email';
const STEP = 'Send welcome email';
const FIELD = { code: 'cf__4c2d9e8f0a1b4c3d', label: 'Delay, minutes', typed: '30', value: 30 };
/** Connection settings as a user picks them: top level, then the nested step after a refresh. */
const SETTINGS = [
	['crm', 'Pipedrive'],
	['mailer', 'Mailchimp'],
];
const NESTED = ['pipedriveFilter', 'All deals'];
const ACTION = 'Ensure an installation exists in the desired state';
const LONG = 3 * UI_TIMEOUT; // an execution on a busy machine

const input = (page, name) =>
	page.getByTestId(`parameter-input-${name}`).locator('input, textarea').first();

/**
 * Partner mode: a credential of the Albato Partner API type (n8n's select lists both types and
 * sets the hidden Authentication to match). Run alone, that is the imported one; in run.mjs, the
 * one the partner-mode editor test created.
 */
async function choosePartnerCredential(page) {
	const select = page.getByTestId('node-credentials-select');
	await select.waitFor({ timeout: UI_TIMEOUT });
	const deadline = Date.now() + 5000;
	while (!/Partner/i.test(await select.locator('input').first().inputValue())) {
		if (Date.now() > deadline) {
			await select.click();
			await page
				.getByRole('option')
				.filter({ hasText: /Partner/i })
				.first()
				.click();
			break;
		}
		await page.waitForTimeout(250);
	}
	// The End User ID field shows once partner mode is on.
	await page.getByTestId('parameter-input-endUserId').waitFor({ timeout: UI_TIMEOUT });
}

/** Run the open node ("Execute step" / "Fetch Test Event") and return its output as JSON text. */
async function executeAndReadJson(page, expect) {
	await page.getByTestId('node-execute-button').click();
	const output = page.getByTestId('output-panel');
	const mode = output.getByTestId('ndv-run-data-display-mode');
	await mode.waitFor({ timeout: LONG });
	await mode.getByText('JSON', { exact: true }).click();
	const deadline = Date.now() + LONG;
	for (;;) {
		const text = (await output.innerText()).replace(/\s+/g, ' ');
		if (expect.test(text)) return text;
		if (Date.now() > deadline)
			throw new Error(`output never matched ${expect}: ${text.slice(0, 800)}`);
		await page.waitForTimeout(500);
	}
}

/** The Field Values entry: Automation, Step and Field Code from their pickers, Value typed. */
async function pickFieldValue(page) {
	const automations = await openOptions(page, 'automation');
	await pickOption(page, TEMPLATE);
	const steps = await openOptions(page, 'step');
	await pickOption(page, STEP);
	const fields = await openOptions(page, 'code');
	await pickOption(page, FIELD.label);
	await input(page, 'value').fill(FIELD.typed);
	return { automations, steps, fields };
}

/** The emulator's value of the field in the customer's installation with `TITLE`. */
async function emulatorField(emulator) {
	const state = await emulator.state();
	const installations = state.installations.filter(
		(i) =>
			i.title === TITLE &&
			i.solutionId === SOLUTION &&
			String(i.userId ?? i.sub ?? '').includes(CUSTOMER),
	);
	const bundleIds = installations.flatMap((i) => i.bundleIds ?? []);
	const field = state.bundleData
		.filter((record) => bundleIds.includes(record.bundleId))
		.flatMap((record) => record.fields)
		.find((f) => f.name === FIELD.code);
	return { installations, value: field?.value };
}

// ---- 1. Ensure onboarding ---------------------------------------------------------------

async function ensureOnboarding(page, baseUrl, emulator, checks, shots, trialId) {
	await page.goto(`${baseUrl}/workflow/new`);
	await page.getByTestId('canvas-plus-button').waitFor({ timeout: UI_TIMEOUT });
	await checks.step('adds "Ensure an installation exists in the desired state"', async () => {
		await openOurNodeInPanel(page, () => page.getByTestId('canvas-plus-button').click());
		await addAction(page, ACTION);
		await choosePartnerCredential(page);
		await input(page, 'endUserId').fill(CUSTOMER);
	});
	const solutions = await checks.step('Solution picker loads for the new customer', () =>
		openLocatorList(page, 'solutionId'),
	);
	checks.ok(
		`Solution picker offers solution ${SOLUTION}`,
		solutions.some((text) => text.includes(`(${SOLUTION})`)),
		solutions.join(' | '),
	);
	await pickFromLocator(page, `(${SOLUTION})`);
	await checks.step('Title typed, connection settings and template picked', async () => {
		await page.getByTestId('parameter-input-crm').waitFor({ timeout: UI_TIMEOUT });
		await input(page, 'title').fill(TITLE);
		for (const [step, value] of SETTINGS) {
			await openOptions(page, step);
			await pickOption(page, value);
		}
		await refreshMapper(page);
		await page.getByTestId(`parameter-input-${NESTED[0]}`).waitFor({ timeout: UI_TIMEOUT });
		await openOptions(page, NESTED[0]);
		await pickOption(page, NESTED[1]);
		await openOptions(page, 'templateIds');
		await pickOption(page, TEMPLATE);
		await page.keyboard.press('Escape');
	});
	const picked = await checks.step(
		'Field Values: Automation, Step and Field Code pickers load',
		async () => {
			await page
				.getByTestId('fixed-collection-add-top-level-button')
				.or(page.getByRole('button', { name: 'Add Field Value' }))
				.first()
				.click();
			await page.getByTestId('parameter-input-automation').waitFor({ timeout: UI_TIMEOUT });
			return pickFieldValue(page);
		},
	);
	checks.ok(
		`Step picker offers "${STEP}", saying it was read from installation ${trialId}`,
		picked.steps.some((text) => text.includes(STEP) && text.includes(`(${trialId})`)),
		picked.steps.join(' | '),
	);
	checks.ok(
		`Field picker offers "${FIELD.label}"`,
		picked.fields.some((text) => text.includes(FIELD.label)),
		picked.fields.join(' | '),
	);
	checks.equal(
		'the node has no parameter issues',
		await page.getByTestId('ndv').getByTestId('parameter-issues').count(),
		0,
	);
	shots.push(await shoot(page, 'n8n-ensure-field-values.png'));

	const first = await checks.step('first execution succeeds', () =>
		executeAndReadJson(page, /"created":/),
	);
	checks.ok('first run: "created": true', /"created": true/.test(first), first.slice(0, 600));
	const after = await emulatorField(emulator);
	checks.equal('emulator: one installation with the title', after.installations.length, 1);
	checks.ok(
		`emulator: "${FIELD.label}" is the number ${FIELD.value} (typed "${FIELD.typed}")`,
		after.value === FIELD.value,
		JSON.stringify(after.value),
	);
	shots.push(await shoot(page, 'n8n-ensure-output.png'));
	const second = await checks.step('second execution succeeds', async () => {
		// The first output stays on screen: wait for the second run's own answer.
		return executeAndReadJson(page, /"unchanged": true/);
	});
	checks.ok(
		'second run: "created": false, "unchanged": true',
		/"created": false/.test(second) && /"unchanged": true/.test(second),
		second.slice(0, 600),
	);
	checks.equal(
		'emulator: still one installation',
		(await emulatorField(emulator)).installations.length,
		1,
	);
	await page.getByTestId('ndv-close-button').click();
	return after.installations[0];
}

// ---- 2. the trigger's Run Failed sample ----------------------------------------------------

async function triggerSample(page, baseUrl, emulator, checks, shots, installation) {
	// A failed run of the installation Ensure made, as the service records it.
	await emulator.control('POST', '/runs', {
		bundleId: installation.bundleIds[0],
		outcome: 'failed',
		steps: [[{}], [{ status: 'failed', error: 'CRM refused the contact (e2e)' }]],
	});
	await page.goto(`${baseUrl}/workflow/new`);
	await page.getByTestId('canvas-plus-button').waitFor({ timeout: UI_TIMEOUT });
	await checks.step('adds the Albato Solutions Trigger "On run failed"', async () => {
		await page.getByTestId('canvas-plus-button').click();
		const panel = page.getByTestId('node-creator');
		await panel.getByTestId('node-creator-search-bar').waitFor({ timeout: UI_TIMEOUT });
		await page.keyboard.type('Albato Solutions');
		await panel
			.getByText(/^Manage the Albato solutions of your customers, and start a workflow/)
			.first()
			.click();
		await panel.getByText('On run failed', { exact: true }).click();
		await page.getByTestId('ndv').waitFor({ timeout: UI_TIMEOUT });
		await choosePartnerCredential(page);
		await input(page, 'endUserId').fill(CUSTOMER);
	});
	const sample = await checks.step('Fetch Test Event returns the failed run', () =>
		executeAndReadJson(page, /"installationTitle":/),
	);
	checks.ok(
		`sample's installationTitle is "${TITLE}"`,
		sample.includes(`"installationTitle": "${TITLE}"`),
		sample.slice(0, 800),
	);
	checks.ok(
		`sample's bundleTitle is "${TEMPLATE}"`,
		sample.includes(`"bundleTitle": "${TEMPLATE}"`),
		sample.slice(0, 800),
	);
	checks.ok(
		`sample's installationId is ${installation.id}`,
		sample.includes(`"installationId": ${installation.id}`),
		sample.slice(0, 800),
	);
	shots.push(await shoot(page, 'n8n-ensure-trigger-run-failed.png'));
	await page.getByTestId('ndv-close-button').click();
}

// ---- 3. a reopened workflow, End User ID an expression ---------------------------------------

/** n8n's REST API from inside the signed-in page (its auth cookie is bound to the browser ID). */
async function rest(page, method, urlPath, body) {
	return page.evaluate(
		async ({ method, urlPath, body }) => {
			const response = await fetch(`/rest${urlPath}`, {
				method,
				headers: {
					'content-type': 'application/json',
					'browser-id': localStorage.getItem('n8n-browserId') ?? '',
				},
				body: body ? JSON.stringify(body) : undefined,
			});
			const text = await response.text();
			if (!response.ok) throw new Error(`${method} /rest${urlPath}: ${response.status} ${text}`);
			return JSON.parse(text).data;
		},
		{ method, urlPath, body },
	);
}

/** Manual trigger → "Customer" (Edit Fields: customerId) → Ensure with End User ID {{ $json.customerId }}. */
function reopenedWorkflow(credential) {
	return {
		name: `Ensure, End User ID from the previous node (e2e ${CUSTOMER})`,
		nodes: [
			{
				parameters: {},
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: {
					assignments: {
						assignments: [{ id: 'c1', name: 'customerId', value: CUSTOMER, type: 'string' }],
					},
					options: {},
				},
				name: 'Customer',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
			},
			{
				parameters: {
					authentication: 'partnerApi',
					endUserId: '={{ $json.customerId }}',
					resource: 'installation',
					operation: 'ensure',
					solutionId: { __rl: true, mode: 'list', value: SOLUTION },
					title: TITLE,
					templateIds: [],
					desiredFields: { field: [{ automation: '', step: '', code: '', value: '' }] },
				},
				name: 'Ensure',
				type: 'n8n-nodes-albato-solutions.albatoSolutions',
				typeVersion: 2,
				position: [440, 0],
				credentials: { albatoPartnerApi: { id: credential.id, name: credential.name } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Customer', type: 'main', index: 0 }]] },
			Customer: { main: [[{ node: 'Ensure', type: 'main', index: 0 }]] },
		},
		settings: {},
	};
}

async function reopened(page, baseUrl, checks, shots) {
	const workflow = await checks.step(
		'a saved workflow: End User ID {{ $json.customerId }}',
		async () => {
			const credentials = await rest(page, 'GET', '/credentials');
			const credential = credentials.find((c) => c.type === 'albatoPartnerApi');
			if (!credential) throw new Error('no Albato Partner API credential');
			return rest(page, 'POST', '/workflows', reopenedWorkflow(credential));
		},
	);
	await page.goto(`${baseUrl}/workflow/${workflow.id}`);
	const ensureNode = page.getByTestId('canvas-node').filter({ hasText: 'Ensure' }).first();
	await checks.step('reopened, Ensure opened, "Execute previous nodes" run', async () => {
		await ensureNode.dblclick();
		await page.getByTestId('ndv').waitFor({ timeout: UI_TIMEOUT });
		await page.getByTestId('execute-previous-node').first().click();
		await page
			.getByTestId('ndv-input-panel')
			.getByText(CUSTOMER)
			.first()
			.waitFor({ timeout: LONG });
	});
	// n8n 2.41 loads an option list when the node opens and when a parameter it depends on
	// changes; End User ID's text (the expression) does not change when the previous node runs,
	// so the lists load on the node's next opening (what its hint says).
	await checks.step('Ensure closed and opened again', async () => {
		await page.getByTestId('ndv-close-button').click();
		await page.getByTestId('ndv').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
		await ensureNode.dblclick();
		await page.getByTestId('ndv').waitFor({ timeout: UI_TIMEOUT });
		await page.getByTestId('ndv-input-panel').getByText(CUSTOMER).first().waitFor();
	});
	const templates = await checks.step(
		'Template Names load once Ensure is opened again after the previous node ran',
		() => openOptions(page, 'templateIds'),
	);
	checks.ok(
		`Template Names lists "${TEMPLATE}"`,
		templates.some((text) => text.includes(TEMPLATE)),
		templates.join(' | '),
	);
	await page.keyboard.press('Escape');
	const automations = await checks.step('Field Values → Automation loads too', () =>
		openOptions(page, 'automation'),
	);
	checks.ok(
		`Automation lists "${TEMPLATE}"`,
		automations.some((text) => text.includes(TEMPLATE)),
		automations.join(' | '),
	);
	shots.push(await shoot(page, 'n8n-ensure-reopened.png'));
	await page.keyboard.press('Escape');
}

export async function runEnsureBrowserTest({
	baseUrl,
	emulator,
	checks,
	failureDir = os.tmpdir(),
	log = console.log,
}) {
	const partner = await emulator.control('GET', '/partner');
	// The customer has a trial installation of the solution (another title): the service shows an
	// automation's steps and fields only in an installation (the emulator's templates do not list
	// them, as the service's do not), so Ensure's Step and Field pickers read them from there.
	const trialId = await prepareCustomer(emulator, partner, CUSTOMER, false);
	const shots = [];
	await inEditor({ baseUrl, checks, name: 'ensure-browser', failureDir, log }, async (page) => {
		const installation = await ensureOnboarding(page, baseUrl, emulator, checks, shots, trialId);
		await triggerSample(page, baseUrl, emulator, checks, shots, installation);
		await reopened(page, baseUrl, checks, shots);
	});
	return shots;
}

// Standalone: against a running `npm run dev`.
if (import.meta.url === pathToFileURL(process.argv[1]).href)
	await runAgainstDev(
		'browserEnsure.mjs',
		'Editor: Ensure onboarding, trigger sample, reopened workflow (Chromium)',
		runEnsureBrowserTest,
	);
