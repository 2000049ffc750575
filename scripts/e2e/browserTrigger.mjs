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
import { pathToFileURL } from 'node:url';

import {
	closeNodeView,
	ensureCredential,
	firstLine,
	inEditor,
	openLocatorList,
	pickFromLocator,
	runAgainstDev,
	selectedCredential,
	UI_TIMEOUT,
} from './browser.mjs';
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
	await inEditor({ baseUrl, checks, name: 'trigger-browser', failureDir, log }, async (page) => {
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
	});
}

// Standalone: against a running `npm run dev`.
if (import.meta.url === pathToFileURL(process.argv[1]).href)
	await runAgainstDev(
		'browserTrigger.mjs',
		"Editor: the trigger's pickers (Chromium)",
		runTriggerPickerTest,
	);
