// n8n's credential modal, as the browser walk-throughs drive it: open a new credential of a type,
// fill a field, save (n8n tests on save) and read the verdict.

import { UI_TIMEOUT } from './browser.mjs';

export const modal = (page) => page.getByTestId('editCredential-modal');

/** A new credential of the type whose name starts with `typeName`, its modal open. */
export async function openNewCredential(page, baseUrl, typeName) {
	await page.goto(`${baseUrl}/home/credentials/create`);
	await page.getByTestId('new-credential-type-select').click();
	await page.keyboard.type(typeName);
	await page
		.getByTestId('new-credential-type-select-option')
		.filter({ hasText: typeName })
		.first()
		.click();
	await page.getByTestId('new-credential-type-button').click();
	await modal(page).waitFor({ timeout: UI_TIMEOUT });
}

export async function fillCredentialField(page, name, value) {
	const input = modal(page)
		.getByTestId(`parameter-input-${name}`)
		.locator('input, textarea')
		.first();
	await input.fill(value);
}

/** Save the credential; n8n tests it on save. Returns the modal's text, the failure's details opened. */
export async function saveAndReadTest(page) {
	const text = async () => (await modal(page).innerText()).replace(/\s+/g, ' ');
	await modal(page).getByTestId('credential-save-button').click();
	// The last verdict stays on screen while n8n saves and tests again: wait until saving and testing
	// are over and a verdict has stood still for a second.
	const deadline = Date.now() + UI_TIMEOUT;
	let last = '';
	for (;;) {
		await page.waitForTimeout(1000);
		const now = await text();
		const settled = !/Saving|Testing/.test(now) && /Couldn.t connect|tested successfully/.test(now);
		if (settled && now === last) break;
		if (Date.now() > deadline) throw new Error(`no test verdict: ${now.slice(0, 300)}`);
		last = now;
	}
	const details = modal(page).getByText('More details');
	if (await details.isVisible()) {
		await details.click();
		await page.waitForTimeout(400);
	}
	return text();
}
