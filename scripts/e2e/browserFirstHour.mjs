// The first hour of a new partner, in the editor: the Albato Partner API
// credential's form choices show the token's place, and its test in n8n's modal passes with the
// right token where the service refuses Auto's first form (the emulator's noBasicUsername reading),
// says "most likely wrong" for a wrong token and "Could not reach" for a Base URL with nothing
// behind it.
//
// Used by browserPartner.mjs (so by run.mjs); `node scripts/e2e/browserFirstHour.mjs <n8n URL>
// <emulator URL> <emulator token>` runs it alone against `npm run dev`.

import http from 'node:http';
import os from 'node:os';
import { pathToFileURL } from 'node:url';

import {
	addAction,
	inEditor,
	openOptions,
	openOurNodeInPanel,
	runAgainstDev,
	UI_TIMEOUT,
} from './browser.mjs';
import {
	fillCredentialField,
	modal,
	openNewCredential,
	saveAndReadTest,
} from './credentialModal.mjs';

/** An address with nothing listening: a port taken and let go. */
async function closedAddress() {
	const server = http.createServer();
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	await new Promise((resolve) => server.close(resolve));
	return `http://127.0.0.1:${port}`;
}

/** Point 2: the right token where the service refuses Auto's first form, then a wrong token. */
async function checkVerdicts(page, emulator, partner, checks) {
	await emulator.control('POST', '/variants', { strictAuth: 'noBasicUsername' });
	try {
		await fillCredentialField(page, 'baseUrl', emulator.baseUrl);
		await fillCredentialField(page, 'partnerName', partner.name);
		await fillCredentialField(page, 'masterToken', partner.masterToken);
		const right = await checks.step('saves it: the right token, service in noBasicUsername', () =>
			saveAndReadTest(page),
		);
		checks.ok(
			'the test passes with the right token on Auto though Basic username is refused',
			/tested successfully/i.test(right),
			right,
		);
		await fillCredentialField(page, 'masterToken', 'wrong-master-token-0123456789');
		const wrong = await checks.step('saves it with a wrong master token', () =>
			saveAndReadTest(page),
		);
		checks.ok(
			'a wrong token: "The token is most likely wrong" first, with the service\'s words',
			/The token is most likely wrong/.test(wrong) && /Invalid master token/.test(wrong),
			wrong,
		);
	} finally {
		await emulator.control('POST', '/variants', { strictAuth: 'lenient' });
	}
}

/**
 * Point 8: the Installation picker for an End User ID the service does not know, in partner mode
 * (the imported "Albato Partner (emulator)" credential): no "404 - " before the message, the End
 * User ID shown once.
 */
async function checkPickerError(page, baseUrl, checks) {
	const shown = await checks.step('Installation picker for an unknown End User ID', async () => {
		await page.goto(`${baseUrl}/workflow/new`);
		await page.getByTestId('canvas-plus-button').waitFor({ timeout: UI_TIMEOUT });
		await openOurNodeInPanel(page, () => page.getByTestId('canvas-plus-button').click());
		await addAction(page, 'Get an installation');
		await page.getByTestId('node-credentials-select').click();
		await page.getByRole('option').filter({ hasText: 'Albato Partner (emulator)' }).first().click();
		const endUserId = page.getByTestId('parameter-input-endUserId').locator('input, textarea');
		await endUserId.first().fill('cust-alpah');
		await page.getByTestId('resource-locator-installationId').getByTestId('rlc-input').click();
		const error = page.getByText(/^Could not load the installations/).first();
		await error.waitFor({ timeout: UI_TIMEOUT });
		return (await error.locator('..').innerText()).replace(/\s+/g, ' ');
	});
	checks.ok(
		'the picker error has no "404 - " before it, and names the End User ID once',
		!/\b\d{3} - /.test(shown) && (shown.match(/cust.alpah/g) ?? []).length === 1,
		shown,
	);
}

export async function runFirstHourBrowserTest({
	baseUrl,
	emulator,
	checks,
	failureDir = os.tmpdir(),
	log = console.log,
}) {
	const partner = await emulator.control('GET', '/partner');
	const editor = { baseUrl, checks, name: 'first-hour', failureDir, log };
	await inEditor(editor, async (page) => {
		await checks.step('opens a new Albato Partner API credential', () =>
			openNewCredential(page, baseUrl, 'Albato Partner API'),
		);
		// ---- point 1: the choices as the editor renders them (HTML: a <tag> would vanish)
		const choices = (await openOptions(page, 'headerForm')).join(' | ');
		await page.keyboard.press('Escape');
		checks.ok(
			"Send Master Token As: each form shows the token's place (‹master token›)",
			choices.includes('Basic base64("‹master token›:")') &&
				choices.includes('Basic ‹master token›') &&
				choices.includes('Bearer ‹master token›'),
			choices,
		);

		await checkVerdicts(page, emulator, partner, checks);
		const nowhere = await closedAddress();
		await fillCredentialField(page, 'masterToken', partner.masterToken);
		await fillCredentialField(page, 'baseUrl', nowhere);
		const unreachable = await checks.step('saves it with a Base URL nothing answers at', () =>
			saveAndReadTest(page),
		);
		checks.ok(
			'an unreachable Base URL: "Could not reach <url>: check Base URL"',
			unreachable.includes(`Could not reach ${nowhere}: check Base URL`),
			unreachable,
		);
		await modal(page).locator('.el-dialog__close').first().click();
		await checkPickerError(page, baseUrl, checks);
	});
}

// Standalone: against a running `npm run dev`.
if (import.meta.url === pathToFileURL(process.argv[1]).href)
	await runAgainstDev(
		'browserFirstHour.mjs',
		'The first hour: the partner credential in the editor (Chromium)',
		runFirstHourBrowserTest,
	);
