// The editor in partner mode, as a new partner would use it: create the Albato Partner API
// credential in n8n's credential modal and test it (a Base URL that answers 404 HTML fails, the
// emulator passes), then build a workflow with the trigger (Fetch Test Event), the installation
// picker, the field mapper and the solution picker, all acting as one end user. Screenshots go to
// docs/screenshots/n8n-partner-*.png. Used by run.mjs after the Access Token editor test; `node
// scripts/e2e/browserPartner.mjs <n8n URL> <emulator URL>` runs it alone against `npm run dev`.

import http from 'node:http';
import os from 'node:os';
import { pathToFileURL } from 'node:url';

import {
	addAction,
	firstLine,
	inEditor,
	openAddFieldMenu,
	openLocatorList,
	openOptions,
	openOurNodeInPanel,
	pickFromLocator,
	runAgainstDev,
	shoot,
	UI_TIMEOUT,
} from './browser.mjs';
import {
	fillCredentialField,
	modal,
	openNewCredential,
	saveAndReadTest,
} from './credentialModal.mjs';
import { prepareCustomer } from './partner.mjs';

// Unique per run, so the standalone run can be repeated against one emulator.
const CUSTOMER = `editor-customer-${Date.now().toString(36)}`;
const NOT_ALBATO = /Base URL did not answer like Albato's partner API/;

/** Another server: every request gets a 404 HTML page (what a wrong Base URL often reaches). */
async function notFoundServer() {
	const server = http.createServer((request, response) => {
		request.resume();
		response.writeHead(404, { 'content-type': 'text/html' });
		response.end('<html><body><h1>404 Not Found</h1></body></html>');
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/**
 * Partner mode: choose the partner credential. n8n's credential select lists both credential types
 * and sets Authentication to match (it hides that parameter); it preselects the newest credential.
 */
async function partnerMode(page, credentialName) {
	const select = page.getByTestId('node-credentials-select');
	const deadline = Date.now() + 5000;
	while ((await select.locator('input').first().inputValue()) !== credentialName) {
		if (Date.now() > deadline) {
			await select.click();
			await page.getByRole('option').filter({ hasText: credentialName }).first().click();
			break;
		}
		await page.waitForTimeout(250);
	}
}

async function fillEndUserId(page, value) {
	await page
		.getByTestId('parameter-input-endUserId')
		.locator('input, textarea')
		.first()
		.fill(value);
}

/** Names of the visible parameters of the open node, top to bottom. */
async function parameterOrder(page) {
	return page
		.getByTestId('ndv')
		.locator('[data-test-id^="parameter-input-"]')
		.evaluateAll((nodes) =>
			nodes.map((node) => node.getAttribute('data-test-id').replace('parameter-input-', '')),
		);
}

/** The credential, created and tested in n8n's modal: refused at a Base URL that answers 404 HTML, saved at the emulator. Gives its name. */
async function partnerCredential({ page, baseUrl, checks, shots, emulator, stub, partner }) {
	await checks.step('opens a new Albato Partner API credential', () =>
		openNewCredential(page, baseUrl, 'Albato Partner API'),
	);
	const wrong = await checks.step('saves it with a Base URL that answers 404 HTML', async () => {
		await fillCredentialField(page, 'baseUrl', stub.url);
		await fillCredentialField(page, 'partnerName', partner.name);
		await fillCredentialField(page, 'masterToken', partner.masterToken);
		return saveAndReadTest(page);
	});
	checks.ok(
		'credential test fails for the 404 page, naming Base URL',
		NOT_ALBATO.test(wrong) && !/tested successfully/i.test(wrong),
		wrong,
	);
	shots.push(await shoot(page, 'n8n-partner-credential-wrong.png'));
	const right = await checks.step('saves it again with the emulator as Base URL', async () => {
		await fillCredentialField(page, 'baseUrl', emulator.baseUrl);
		return saveAndReadTest(page);
	});
	checks.ok(
		'credential test passes against the emulator',
		/tested successfully/i.test(right) && !NOT_ALBATO.test(right),
		right,
	);
	const credentialName = (await modal(page).getByTestId('credential-name').innerText()).trim();
	await modal(page).locator('.el-dialog__close').first().click();
	return credentialName;
}

/** The trigger: Fetch Test Event carries endUserId. */
async function triggerSample({ page, baseUrl, checks, shots }, credentialName) {
	await page.goto(`${baseUrl}/workflow/new`);
	await page.getByTestId('canvas-plus-button').waitFor({ timeout: UI_TIMEOUT });
	await checks.step('adds the Albato Solutions Trigger', async () => {
		await page.getByTestId('canvas-plus-button').click();
		const panel = page.getByTestId('node-creator');
		await panel.getByTestId('node-creator-search-bar').waitFor({ timeout: UI_TIMEOUT });
		await page.keyboard.type('Albato Solutions');
		// n8n lists a trigger under its node's name ("Albato Solutions"), with its own description
		// (written to read for both nodes).
		await panel
			.getByText(/^Manage the Albato solutions of your customers, and start a workflow/)
			.first()
			.click();
		await panel.getByText('On installation created', { exact: true }).click();
		await page.getByTestId('ndv').waitFor({ timeout: UI_TIMEOUT });
	});
	const triggerPlaceholder = await checks.step('switches the trigger to partner mode', async () => {
		await partnerMode(page, credentialName);
		return page
			.getByTestId('parameter-input-endUserId')
			.locator('input, textarea')
			.first()
			.getAttribute('placeholder');
	});
	checks.ok(
		"trigger's End User ID suggests a fixed ID or $vars, not $json",
		/\$vars\./.test(triggerPlaceholder ?? '') && !/\$json/.test(triggerPlaceholder ?? ''),
		triggerPlaceholder,
	);
	const sample = await checks.step('Fetch Test Event returns an event', async () => {
		await fillEndUserId(page, CUSTOMER);
		await page.getByTestId('node-execute-button').click();
		const output = page.getByTestId('output-panel');
		await output.getByText(CUSTOMER).first().waitFor({ timeout: UI_TIMEOUT });
		return output.innerText();
	});
	checks.ok(
		`trigger event carries endUserId "${CUSTOMER}"`,
		/endUserId/.test(sample) && sample.includes(CUSTOMER),
		sample.slice(0, 400),
	);
	shots.push(await shoot(page, 'n8n-partner-trigger.png'));
	await page.getByTestId('ndv-close-button').click();
}

/** The installation picker and the field mapper, acting as the trigger's end user. */
async function fieldMapper({ page, checks, shots, installationId }, credentialName) {
	await checks.step('adds "Update field values of a step" after the trigger', async () => {
		await openOurNodeInPanel(page, () => page.getByTestId('canvas-handle-plus').last().click());
		await addAction(page, 'Update field values of a step');
		await partnerMode(page, credentialName);
		// As a partner would after a trigger: the end user of the event (n8n switches to an expression).
		await fillEndUserId(page, '{{ $json.endUserId }}');
	});
	const order = await parameterOrder(page);
	checks.equal(
		'parameters start Resource, Operation, End User ID',
		order.filter((name) => name !== 'authentication').slice(0, 3),
		['resource', 'operation', 'endUserId'],
	);
	const installations = await checks.step(
		'Installation picker lists the customer’s installations',
		() => openLocatorList(page, 'installationId'),
	);
	checks.ok(
		`Installation picker offers installation ${installationId} of ${CUSTOMER}, only theirs`,
		installations.length === 1 && installations[0].includes(`(${installationId}`),
		installations.join(' | '),
	);
	await pickFromLocator(page, `(${installationId}`);
	await checks.step('automation and step pickers load', async () => {
		await openOptions(page, 'bundleId');
		await page.getByRole('option').first().click();
		await openOptions(page, 'stepId');
		await page.getByRole('option').first().click();
	});
	const fields = await checks.step('field mapper offers the step’s fields by label', () =>
		openAddFieldMenu(page),
	);
	checks.ok('field mapper lists fields', fields.length > 0, fields.join(' | '));
	await page.locator('[role=menuitem][data-reka-collection-item]').first().click();
	const mapperText = await page.getByTestId('resource-mapper-container').innerText();
	checks.ok(
		'field mapper is headed "Field Values", not "Values to Send"',
		/Field Values/.test(mapperText) && !/Values to Send/.test(mapperText),
		mapperText.slice(0, 300),
	);
	shots.push(await shoot(page, 'n8n-partner-field-mapper.png'));
	await page.getByTestId('ndv-close-button').click();
}

/** The solution picker and the connection settings mapper. */
async function installPicker({ page, checks, shots, emulator }, credentialName) {
	await checks.step('adds "Install a solution" in partner mode', async () => {
		await openOurNodeInPanel(page, () => page.getByTestId('canvas-handle-plus').last().click());
		await addAction(page, 'Install a solution');
		await partnerMode(page, credentialName);
	});
	// The previous node has not run: an expression End User ID has nothing to resolve here.
	const hint = await checks.step('an End User ID expression with no input data', async () => {
		await fillEndUserId(page, '{{ $json.customerId }}');
		await page.getByTestId('resource-locator-solutionId').getByTestId('rlc-input').click();
		const shown = page.getByText(/End User ID has no value here/).first();
		await shown.waitFor({ timeout: UI_TIMEOUT });
		const text = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
		await page.keyboard.press('Escape');
		return text;
	});
	checks.ok(
		'the Solution picker says the expression has nothing to resolve and how to browse, not "is empty"',
		/End User ID has no value here .*To browse, type a fixed End User ID, or run the previous node and then close and reopen this node/.test(
			hint,
		) && !/End User ID is empty|references this node/.test(hint),
		hint.slice(0, 600),
	);
	shots.push(await shoot(page, 'n8n-partner-expression-hint.png'));
	// Now an expression field: its text replaced by the plain ID (an expression of just text).
	// Keys pressed on the field itself (it takes the focus first): on a busy machine a click may not
	// have focused the editor yet, and keys sent to the canvas close the node's panel.
	const endUserField = page.getByTestId('parameter-input-endUserId').locator('.cm-content').first();
	await endUserField.click();
	await endUserField.press('Control+A');
	await endUserField.pressSequentially(CUSTOMER);
	const solutions = await emulator.call('GET', '/solution/apps');
	const solutionItems = await checks.step('Solution picker opens and loads', () =>
		openLocatorList(page, 'solutionId'),
	);
	checks.equal(
		'Solution picker lists the solutions, "Title (ID)"',
		solutionItems.map(firstLine),
		solutions.map((s) => `${s.title} (${s.id})`),
	);
	await pickFromLocator(page, `(${solutions[0].id})`);
	await page.getByTestId('parameter-input-crm').waitFor({ timeout: UI_TIMEOUT });
	const settings = await page.getByTestId('ndv').innerText();
	checks.ok(
		'connection settings mapper is labelled and says nested steps appear after a refresh',
		/Connection Settings/.test(settings) && /Refresh Step List/.test(settings),
		settings.slice(0, 600),
	);
	shots.push(await shoot(page, 'n8n-partner-install.png'));
	await page.getByTestId('ndv-close-button').click();
}

export async function runPartnerBrowserTest({
	baseUrl,
	emulator,
	checks,
	failureDir = os.tmpdir(),
	log = console.log,
}) {
	const partner = await emulator.control('GET', '/partner');
	const installationId = await prepareCustomer(emulator, partner, CUSTOMER, false);
	const stub = await notFoundServer();
	const shots = [];
	const editor = {
		baseUrl,
		checks,
		name: 'partner-browser',
		failureDir,
		log,
		cleanup: () => stub.close(),
	};
	await inEditor(editor, async (page) => {
		const run = { page, baseUrl, checks, shots, emulator, stub, installationId, partner };
		const credentialName = await partnerCredential(run);
		await triggerSample(run, credentialName);
		await fieldMapper(run, credentialName);
		await installPicker(run, credentialName);
	});
	return shots;
}

// Standalone: against a running `npm run dev`.
if (import.meta.url === pathToFileURL(process.argv[1]).href)
	await runAgainstDev(
		'browserPartner.mjs',
		'Editor in partner mode (Chromium)',
		runPartnerBrowserTest,
	);
