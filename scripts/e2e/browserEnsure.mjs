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
import {
	ACTION,
	CUSTOMER,
	FIELD,
	NESTED,
	SETTINGS,
	SOLUTION,
	STEP,
	TEMPLATE,
	TITLE,
	choosePartnerCredential,
	emulatorField,
	executeAndReadJson,
	input,
	pickFieldValue,
} from './lib/ensureEditor.mjs';
import { reopened } from './browserEnsureReopened.mjs';

// ---- 1. Ensure onboarding ---------------------------------------------------------------

/**
 * `editor`: { page, baseUrl, emulator, checks, shots } (the open editor, the emulator's control,
 * the checks, the screenshots taken); `trialId`: the customer's trial installation.
 */
async function ensureOnboarding(editor, trialId) {
	await addEnsureNode(editor);
	await checkFieldPickers(editor, trialId);
	const installation = await executeTwice(editor);
	await editor.page.getByTestId('ndv-close-button').click();
	return installation;
}

/** A new workflow with the Ensure action, its customer, solution, title, settings and template. */
async function addEnsureNode({ page, baseUrl, checks }) {
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
}

/** Field Values: the Step and Field pickers read the trial installation. */
async function checkFieldPickers({ page, checks, shots }, trialId) {
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
}

/** Executed twice: created, then unchanged; one installation in the emulator. Gives it. */
async function executeTwice({ page, emulator, checks, shots }) {
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
	return after.installations[0];
}

// ---- 2. the trigger's Run Failed sample ----------------------------------------------------

async function triggerSample({ page, baseUrl, emulator, checks, shots }, installation) {
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
		const editor = { page, baseUrl, emulator, checks, shots };
		const installation = await ensureOnboarding(editor, trialId);
		await triggerSample(editor, installation);
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
