// The trigger's pickers in the editor: add "Albato Solutions Trigger" from the node panel with the
// end user's credential, choose a run event, and open its two resource locators, Solution and
// Installation ID (Run Events) (shown from trigger version 2 through an `@version` display
// condition), each checked against what the emulator holds; picking a solution narrows nothing
// the editor shows, so both lists are read in full.
//
// Used by compat.mjs (n8n 1.123 and 2.0; the full e2e covers the trigger in 2.41's editor through
// browserPartner.mjs and browserEnsure.mjs); `node scripts/e2e/browserTrigger.mjs <n8n URL>
// <emulator URL> <emulator token>` runs it alone against `npm run dev`.

import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { chromium, selectors } from 'playwright-core';

import {
	closeNodeView,
	ensureCredential,
	firstLine,
	openLocatorList,
	pickFromLocator,
	selectedCredential,
	signIn,
	UI_TIMEOUT,
} from './browser.mjs';
import { Checks } from './lib/checks.mjs';
import { CHROMIUM_ARGS, ensureChromium } from './lib/chromium.mjs';
import { CREDENTIAL } from './lib/setup.mjs';

const EVENT = 'On run failed';
/** The trigger's entry in the node panel: listed under the node's name, with its description. */
const TRIGGER_ENTRY = /^Manage the Albato solutions of your customers, and start a workflow/;

/** Add the trigger from the node panel, at `EVENT`. */
async function addTrigger(page, baseUrl) {
	await page.goto(`${baseUrl}/workflow/new`);
	await page.getByTestId('canvas-plus-button').waitFor({ timeout: UI_TIMEOUT });
	await page.getByTestId('canvas-plus-button').click();
	const panel = page.getByTestId('node-creator');
	await panel.getByTestId('node-creator-search-bar').waitFor({ timeout: UI_TIMEOUT });
	await page.keyboard.type('Albato Solutions');
	// 2.41 shows the description under each entry; 1.123 and 2.0 one entry by its name alone.
	await panel
		.getByText(TRIGGER_ENTRY)
		.or(panel.getByTestId('node-creator-item-name').filter({ hasText: /^Albato Solutions$/ }))
		.first()
		.click();
	await panel.getByText(EVENT, { exact: true }).click();
	await page.getByTestId('ndv').waitFor({ timeout: UI_TIMEOUT });
}

export async function runTriggerPickerTest({
	baseUrl,
	emulator,
	checks,
	failureDir = os.tmpdir(),
	log = console.log,
}) {
	const solutions = await emulator.call('GET', '/solution/apps');
	const installations = await emulator.call('GET', '/solution/installation');
	const executablePath = await ensureChromium(log);
	selectors.setTestIdAttribute('data-test-id');
	const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 60_000 });
	let page;
	try {
		page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		page.setDefaultTimeout(UI_TIMEOUT);
		await checks.step('signs in to the editor as the owner', () => signIn(page, baseUrl));
		await checks.step(`adds the Albato Solutions Trigger "${EVENT}"`, () =>
			addTrigger(page, baseUrl),
		);
		await ensureCredential(page);
		checks.equal(
			'credential is set on the trigger',
			await selectedCredential(page),
			CREDENTIAL.name,
		);
		const solutionItems = await checks.step("trigger's Solution picker opens and loads", () =>
			openLocatorList(page, 'solutionId'),
		);
		checks.equal(
			"trigger's Solution picker lists the emulator's solutions",
			solutionItems.map(firstLine),
			solutions.map((s) => `${s.title} (${s.id})`),
		);
		await pickFromLocator(page, `(${solutions[0].id})`);
		const installationItems = await checks.step(
			"trigger's Installation ID (Run Events) picker opens and loads",
			() => openLocatorList(page, 'runInstallationId'),
		);
		checks.equal(
			"trigger's Installation picker lists the end user's installations in the emulator",
			installationItems.map((text) => firstLine(text).replace(/ \((\d+),.*\)$/, ' ($1)')),
			installations.map((i) => `${i.title} (${i.id})`),
		);
		await pickFromLocator(page, `(${installations[0].id}`);
		checks.equal(
			'the trigger has no parameter issues',
			await page.getByTestId('ndv').getByTestId('parameter-issues').count(),
			0,
		);
		await closeNodeView(page);
	} catch (error) {
		if (page) {
			const file = path.join(failureDir, 'n8n-e2e-trigger-browser-failure.png');
			await page.screenshot({ path: file }).catch(() => {});
			log(`    screenshot at the failure: ${file}`);
		}
		throw error;
	} finally {
		await browser.close();
	}
}

// Standalone: against a running `npm run dev`.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
	const [baseUrl, emulatorUrl, token] = process.argv.slice(2);
	if (!baseUrl || !emulatorUrl || !token) {
		console.error(
			'usage: node scripts/e2e/browserTrigger.mjs <n8n URL> <emulator URL> <emulator token>',
		);
		process.exit(2);
	}
	const { Emulator } = await import('./lib/emulator.mjs');
	const emulator = Object.assign(Object.create(Emulator.prototype), {
		baseUrl: emulatorUrl,
		token,
	});
	const checks = new Checks();
	await checks.group("Editor: the trigger's pickers (Chromium)", () =>
		runTriggerPickerTest({ baseUrl, emulator, checks }),
	);
	console.log(`\n${checks.summary()}`);
	process.exit(checks.failed ? 1 : 0);
}
