// The editor test: Playwright (playwright-core) drives Debian's Chromium through n8n's editor
// the way a person would: sign in, add our node from the node panel, and use its pickers and
// field mapper, each checked against what the emulator holds. Screenshots go to
// docs/screenshots/ (what the README shows), or to `screenshotDir` (e2e:compat's older editors).
//
// Used by run.mjs; `node scripts/e2e/browser.mjs <n8n URL> <emulator URL> <token>` runs it alone
// against an instance started by `npm run dev`.

import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import { pathToFileURL } from 'node:url';

import { CREDENTIAL } from './lib/setup.mjs';
import {
	SCREENSHOT_DIR,
	UI_TIMEOUT,
	addAction,
	addFieldItems,
	closeNodeView,
	ensureCredential,
	firstLine,
	inEditor,
	openAddFieldMenu,
	openLocatorList,
	openOptions,
	openOurNodeInPanel,
	pickFromLocator,
	pickOption,
	refreshMapper,
	runAgainstDev,
	selectedCredential,
	shoot,
} from './lib/editorKit.mjs';

// The editor kit, for the other browser tests that import it from here.
export * from './lib/editorKit.mjs';

/** The picks the test makes, and what the emulator's fixtures hold for them. */
const SOLUTION = { id: 101, title: 'CRM Leads to Mailer' };
const INSTALLATION = { id: 5002, title: 'Leads for Globex' }; // paused, so its fields may change
const STEP_ID = 9006; // "Send welcome email" of bundle 7003
const FIELDS_TO_ADD = ['Subject', 'Delay, minutes'];
/** What the first node is filled in with, so that it is fully configured (no issues on the canvas). */
const INSTALL_TITLE = 'Acme Corp – CRM sync';
const CONNECTION_SETTINGS = [
	['crm', 'Pipedrive'],
	['mailer', 'Mailchimp'],
]; // top level
const NESTED_SETTING = ['pipedriveFilter', 'All deals']; // shown under Pipedrive after a refresh
const CREDENTIAL_NAME = CREDENTIAL.name;

// ---- the test ---------------------------------------------------------------------------

/** The first node: the node panel, the Solution picker, the template multi-select. */
async function firstNodePickers({ page, baseUrl, checks, shots, screenshotDir, solutions }) {
	await page.goto(`${baseUrl}/workflow/new`);
	await page.getByTestId('canvas-plus-button').waitFor({ timeout: UI_TIMEOUT });

	await checks.step('node panel lists "Albato Solutions" with its actions', () =>
		openOurNodeInPanel(page, () => page.getByTestId('canvas-plus-button').click()),
	);
	shots.push(await shoot(page, 'n8n-node-panel.png', screenshotDir));

	await checks.step('adds the node ("Install a solution")', () =>
		addAction(page, 'Install a solution'),
	);
	await ensureCredential(page);
	checks.equal('credential is set on the node', await selectedCredential(page), CREDENTIAL_NAME);

	const solutionItems = await checks.step('Solution picker opens and loads', () =>
		openLocatorList(page, 'solutionId'),
	);
	shots.push(await shoot(page, 'n8n-solution-picker.png', screenshotDir));
	checks.equal(
		"Solution picker lists the emulator's solutions",
		solutionItems.map(firstLine),
		solutions.map((s) => `${s.title} (${s.id})`),
	);
	await pickFromLocator(page, `${SOLUTION.title} (${SOLUTION.id})`);
}

/** The first node, filled in as a user would: the connection-settings mapper, Title and every step. */
async function firstNodeFilled({ page, checks, shots, screenshotDir, templates }) {
	// The connection-settings mapper loads next and pushes the templates down: wait for it,
	// or the next click lands where the template select was.
	await page.getByTestId('parameter-input-crm').waitFor({ timeout: UI_TIMEOUT });

	const templateItems = await checks.step('template multi-select loads', () =>
		openOptions(page, 'templateIds'),
	);
	shots.push(await shoot(page, 'n8n-template-multiselect.png', screenshotDir));
	checks.equal(
		`template multi-select lists the templates of solution ${SOLUTION.id}`,
		templateItems.map((text) => firstLine(text).replace(/ \(.*\)$/, '')),
		templates.map((t) => t.title),
	);
	await pickOption(page, templates[0].title);
	await page.keyboard.press('Escape');
	const mapperText = await page.getByTestId('resource-mapper-container').innerText();
	checks.ok(
		"connection settings mapper shows the solution's top-level steps (CRM, Mailer)",
		/CRM/.test(mapperText) && /Mailer/.test(mapperText),
		mapperText,
	);

	// Fill in what is required, as a user would, so the node is fully configured: Title, and
	// every connection-settings step, the nested one after a refresh of the mapper.
	await checks.step(
		'fills in Title and every connection setting (nested level after a refresh)',
		async () => {
			await page
				.getByTestId('parameter-input-title')
				.locator('input, textarea')
				.first()
				.fill(INSTALL_TITLE);
			for (const [step, value] of CONNECTION_SETTINGS) {
				await openOptions(page, step);
				await pickOption(page, value);
			}
			await refreshMapper(page);
			await page
				.getByTestId(`parameter-input-${NESTED_SETTING[0]}`)
				.waitFor({ timeout: UI_TIMEOUT });
			await openOptions(page, NESTED_SETTING[0]);
			await pickOption(page, NESTED_SETTING[1]);
		},
	);
	checks.equal(
		'first node has no parameter issues',
		await page.getByTestId('ndv').getByTestId('parameter-issues').count(),
		0,
	);
	await closeNodeView(page);
}

/** The second node after the first: the installation, automation and step pickers, the field mapper menu. */
async function secondNodePickers({
	page,
	checks,
	shots,
	screenshotDir,
	installations,
	state,
	stepFields,
}) {
	// Second node after the first: the installation picker and the field mapper.
	await checks.step('adds a second node ("Update field values of a step")', async () => {
		await openOurNodeInPanel(page, () => page.getByTestId('canvas-handle-plus').last().click());
		await addAction(page, 'Update field values of a step');
	});
	await ensureCredential(page);
	checks.equal(
		'credential is set on the second node',
		await selectedCredential(page),
		CREDENTIAL_NAME,
	);
	const installationItems = await checks.step('Installation picker opens and loads', () =>
		openLocatorList(page, 'installationId'),
	);
	shots.push(await shoot(page, 'n8n-installation-picker.png', screenshotDir));
	checks.equal(
		"Installation picker lists the end user's installations in the emulator",
		installationItems.map((text) => firstLine(text).replace(/ \((\d+),.*\)$/, ' ($1)')),
		installations.map((i) => `${i.title} (${i.id})`),
	);
	await pickFromLocator(page, `${INSTALLATION.title} (${INSTALLATION.id}`);

	const bundles = await checks.step('automation (bundle) picker loads', () =>
		openOptions(page, 'bundleId'),
	);
	const bundle = state.bundles.find((b) => b.stepIds.includes(STEP_ID));
	checks.ok(
		`automation picker offers bundle ${bundle.id}`,
		bundles.some((text) => text.includes(`(${bundle.id})`)),
		bundles.join(' | '),
	);
	await pickOption(page, `(${bundle.id})`);

	const steps = await checks.step('step picker loads', () => openOptions(page, 'stepId'));
	checks.ok(
		`step picker offers step ${STEP_ID} with its field labels`,
		steps.some((text) => text.includes(`(${STEP_ID})`) && text.includes(stepFields[0])),
		steps.join(' | '),
	);
	await pickOption(page, `(${STEP_ID})`);

	const menu = await checks.step("field mapper offers the step's fields", () =>
		openAddFieldMenu(page),
	);
	shots.push(await shoot(page, 'n8n-field-mapper-menu.png', screenshotDir));
	checks.equal(
		`field mapper lists step ${STEP_ID}'s fields by label (with current values)`,
		menu.map((text) => text.replace(/ \(now: .*\)$/s, '')),
		stepFields,
	);
}

/** The second node's fields picked from the mapper menu, then the canvas. */
async function secondNodeFields({ page, checks, shots, screenshotDir }) {
	// The menu is open: pick the first field from it, reopen it for the next (Escape would
	// close the whole node view).
	for (const [index, label] of FIELDS_TO_ADD.entries()) {
		if (index > 0) await openAddFieldMenu(page);
		await addFieldItems(page).filter({ hasText: label }).first().click();
	}
	const mapper = await page.getByTestId('resource-mapper-container').innerText();
	checks.ok(
		`field mapper shows the added fields labelled ${FIELDS_TO_ADD.map((l) => `"${l}"`).join(' and ')}`,
		FIELDS_TO_ADD.every((label) => mapper.includes(label)),
		mapper,
	);
	shots.push(await shoot(page, 'n8n-field-mapper.png', screenshotDir));

	await closeNodeView(page);
	await page.getByTestId('canvas-node').nth(2).waitFor({ timeout: UI_TIMEOUT });
	const nodeTitles = await page.getByTestId('canvas-node').allInnerTexts();
	checks.ok(
		'canvas shows both Albato Solutions nodes',
		nodeTitles.filter((t) => /Install a solution|Update field values of a step/.test(t)).length ===
			2,
		nodeTitles.join(' | '),
	);
	checks.equal(
		'no node on the canvas shows issues (warning triangle)',
		await page.getByTestId('canvas-node').getByTestId('node-issues').count(),
		0,
	);
	shots.push(await shoot(page, 'n8n-canvas.png', screenshotDir));
}

/**
 * Runs every browser check into `checks`. `emulator` is an Emulator (lib/emulator.mjs).
 * Returns the screenshot paths; on a failure, a screenshot of that moment goes to `failureDir`.
 */
export async function runBrowserTest({
	baseUrl,
	emulator,
	checks,
	failureDir = os.tmpdir(),
	screenshotDir = SCREENSHOT_DIR,
	log = console.log,
}) {
	await mkdir(screenshotDir, { recursive: true });
	const shots = [];
	// What the pickers should list: asked from the emulator as the same end user.
	const solutions = await emulator.call('GET', '/solution/apps');
	const installations = await emulator.call('GET', '/solution/installation');
	const templates = await emulator.call('GET', `/solution/${SOLUTION.id}/templates`);
	const state = await emulator.state();
	const stepFields = state.bundleData
		.find((record) => record.id === STEP_ID)
		.fields.map((field) => field.label);

	await inEditor({ baseUrl, checks, name: 'browser', failureDir, log }, async (page) => {
		const run = {
			page,
			baseUrl,
			checks,
			shots,
			screenshotDir,
			solutions,
			installations,
			templates,
			state,
			stepFields,
		};
		await firstNodePickers(run);
		await firstNodeFilled(run);
		await secondNodePickers(run);
		await secondNodeFields(run);
	});
	return shots;
}

// Standalone: against a running `npm run dev`.
if (import.meta.url === pathToFileURL(process.argv[1]).href)
	await runAgainstDev('browser.mjs', 'Editor (Chromium)', runBrowserTest);
