// The editor kit the browser tests share: sign-in, the editor opened in Chromium, the node panel,
// pickers, option lists, the field mapper, screenshots (re-exported by browser.mjs).
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, selectors } from 'playwright-core';
import { Checks } from './checks.mjs';
import { CHROMIUM_ARGS, ensureChromium } from './chromium.mjs';
import { OWNER } from './n8n.mjs';
import { CREDENTIAL } from './setup.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SCREENSHOT_DIR = path.join(repoRoot, 'docs', 'screenshots');
export const UI_TIMEOUT = 20_000;
const CREDENTIAL_NAME = CREDENTIAL.name;

// ---- editor helpers ---------------------------------------------------------------------

export async function signIn(page, baseUrl) {
	await page.goto(`${baseUrl}/signin`);
	// 2.41's inputs have these ids; 1.123's and 2.0's do not: there they are found by type.
	const form = page.getByTestId('signin-form');
	await page
		.locator('#emailOrLdapLoginId')
		.or(form.locator('input[type=email]'))
		.first()
		.fill(OWNER.email);
	await page
		.locator('#password')
		.or(form.locator('input[type=password]'))
		.first()
		.fill(OWNER.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: UI_TIMEOUT });
}

/**
 * One editor group in Debian's Chromium: a page signed in as the owner, handed to `use`. A failure
 * leaves a screenshot, named in the log (`n8n-e2e-<name>-failure.png` in `failureDir`); the browser
 * always closes, then `cleanup` runs.
 */
export async function inEditor(
	{ baseUrl, checks, name, failureDir = os.tmpdir(), log = console.log, cleanup },
	use,
) {
	const executablePath = await ensureChromium(log);
	selectors.setTestIdAttribute('data-test-id'); // n8n's attribute name
	const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 60_000 });
	let page;
	try {
		page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		page.setDefaultTimeout(UI_TIMEOUT);
		await checks.step('signs in to the editor as the owner', () => signIn(page, baseUrl));
		return await use(page);
	} catch (error) {
		if (page) {
			const file = path.join(failureDir, `n8n-e2e-${name}-failure.png`);
			await page.screenshot({ path: file }).catch(() => {});
			log(`    screenshot at the failure: ${file}`);
		}
		throw error;
	} finally {
		await browser.close();
		await cleanup?.();
	}
}

/**
 * A group run alone against a running `npm run dev`:
 * `node scripts/e2e/<script> <n8n URL> <emulator URL> <emulator token>`.
 */
export async function runAgainstDev(script, title, run) {
	const [baseUrl, emulatorUrl, token] = process.argv.slice(2);
	if (!baseUrl || !emulatorUrl || !token) {
		console.error(`usage: node scripts/e2e/${script} <n8n URL> <emulator URL> <emulator token>`);
		process.exit(2);
	}
	const { Emulator } = await import('./lib/emulator.mjs');
	const emulator = Object.assign(Object.create(Emulator.prototype), {
		baseUrl: emulatorUrl,
		token,
	});
	const checks = new Checks();
	await checks.group(title, () => run({ baseUrl, emulator, checks }));
	console.log(`\n${checks.summary()}`);
	process.exit(checks.failed ? 1 : 0);
}

/** Search the node panel for our node and open it (its triggers and actions). */
export async function openOurNodeInPanel(page, openPanel) {
	await openPanel();
	const panel = page.getByTestId('node-creator');
	await panel.getByTestId('node-creator-search-bar').waitFor({ timeout: UI_TIMEOUT });
	await page.keyboard.type('Albato');
	const item = panel
		.getByTestId('node-creator-item-name')
		.filter({ hasText: /^Albato Solutions$/ })
		.first();
	await item.click({ timeout: UI_TIMEOUT });
	const actions = panel.getByText(/^Actions \(\d+\)$/);
	await actions.waitFor({ timeout: UI_TIMEOUT });
	// On an empty canvas n8n offers triggers first and folds the actions: unfold them.
	if (!(await panel.getByText('Install a solution', { exact: true }).isVisible()))
		await actions.click();
}

export async function addAction(page, actionName) {
	const creator = page.getByTestId('node-creator');
	const action = creator.getByText(actionName, { exact: true });
	// With many actions and triggers n8n may show both sections folded: unfold "Actions (N)".
	const folded = creator.getByText(/^Actions \(\d+\)$/);
	await Promise.race([
		action.waitFor({ timeout: UI_TIMEOUT }),
		folded.waitFor({ timeout: UI_TIMEOUT }),
	]).catch(() => {});
	// The section header shows before its items: give them a moment before taking it as folded.
	const shown = await action.waitFor({ timeout: 3000 }).then(
		() => true,
		() => false,
	);
	if (!shown && (await folded.isVisible())) await folded.click();
	await action.click({ timeout: UI_TIMEOUT });
	await page.getByTestId('ndv').waitFor({ timeout: UI_TIMEOUT });
}

/**
 * Click `opener` until `items` show, then return their texts. A panel or select re-renders while
 * n8n sets the credential or loads options that depend on another parameter; a click in that
 * moment opens nothing (seen in CI on a busy machine). So the click is retried, bounded.
 */
export async function openAndRead(page, opener, items) {
	const deadline = Date.now() + UI_TIMEOUT;
	for (;;) {
		await opener.click();
		try {
			await items.first().waitFor({ timeout: 4000 });
			return items.allInnerTexts();
		} catch (error) {
			if (Date.now() > deadline) throw error;
			await page.keyboard.press('Escape');
		}
	}
}

/**
 * The open locator list's items. n8n 1.123 and 2.0 keep a closed list in the page, hidden: with
 * two locators on one node, the other one's items are there too.
 */
const locatorItems = (page) => page.getByTestId('rlc-item').filter({ visible: true });

/** Open a "From list" resource locator and return the texts of its items once loaded. */
export async function openLocatorList(page, parameter) {
	return openAndRead(
		page,
		page.getByTestId(`resource-locator-${parameter}`).getByTestId('rlc-input'),
		locatorItems(page),
	);
}

export async function pickFromLocator(page, text) {
	await locatorItems(page).filter({ hasText: text }).first().click();
	// The list fades out: until it has, its items would be read as the next locator's.
	await locatorItems(page).first().waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
}

/** Open an options / multi-options parameter and return its options' texts once loaded. */
export async function openOptions(page, parameter) {
	return openAndRead(
		page,
		page.getByTestId(`parameter-input-${parameter}`),
		page.getByRole('option'),
	);
}

export async function pickOption(page, text) {
	await page.getByRole('option').filter({ hasText: text }).first().click();
}

/**
 * The items of the resource mapper's "Add field to send" menu: a menu from n8n 2.x's later
 * releases; in 1.123 and 2.0 a select whose options are list items (visible only while open).
 */
export const addFieldItems = (page) =>
	page
		.locator('[role=menuitem][data-reka-collection-item]')
		.or(page.locator('.el-select-dropdown__item:visible'));

/** The resource mapper's "Add field to send" menu: its items' texts. */
export async function openAddFieldMenu(page) {
	// A select just picked from (the step) fades out: until it has, its options would be read here.
	await page
		.locator('.el-select-dropdown__item:visible')
		.first()
		.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
	const opener = page.getByTestId('add-fields-select');
	return openAndRead(
		page,
		opener.getByRole('button').or(opener.locator('.el-select')).first(),
		addFieldItems(page),
	);
}

/** The mapper's "Refresh Step List" action: a nested level shows only after its parent's value is chosen. */
export async function refreshMapper(page) {
	const fields = page
		.getByTestId('resource-mapper-container')
		.getByTestId('mapping-fields-container');
	await fields.hover();
	await fields.getByTestId('action-toggle').first().click();
	await page.getByTestId('action-refreshFieldList').click();
}

/** The credential select is an input: its value is the chosen credential's name. */
export async function selectedCredential(page) {
	return page.getByTestId('node-credentials-select').locator('input').first().inputValue();
}

/** n8n preselects the only credential of the type, a moment after the panel opens; choose it when it did not. */
export async function ensureCredential(page) {
	const deadline = Date.now() + 5000;
	while ((await selectedCredential(page)) !== CREDENTIAL_NAME) {
		if (Date.now() > deadline) {
			await page.getByTestId('node-credentials-select').click();
			await page.getByRole('option').filter({ hasText: CREDENTIAL_NAME }).first().click();
			return;
		}
		await page.waitForTimeout(250);
	}
}

/** Close the node view: its close button, or "Back to canvas" in 1.123's node view. */
export async function closeNodeView(page) {
	await page.getByTestId('ndv-close-button').or(page.getByTestId('back-to-canvas')).first().click();
}

export async function shoot(page, name, dir = SCREENSHOT_DIR) {
	// Menus and dropdowns fade in (~0.2 s): let them finish so the picture shows them.
	await page.waitForTimeout(400);
	const file = path.join(dir, name);
	await page.screenshot({ path: file });
	return path.relative(repoRoot, file);
}

export const firstLine = (text) => text.split('\n')[0].trim();
