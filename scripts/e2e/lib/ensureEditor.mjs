// The Ensure editor test's customer, solution and field, and its small editor and emulator readers
// (browserEnsure.mjs and browserEnsureReopened.mjs).
import { openOptions, pickOption, UI_TIMEOUT } from '../browser.mjs';

// Unique per run, so the standalone run can be repeated against one emulator.
export const CUSTOMER = `ensure-customer-${Date.now().toString(36)}`;
export const SOLUTION = 101;
export const TITLE = 'Acme Corp – lead sync';
export const TEMPLATE = 'New lead → welcome email';
export const STEP = 'Send welcome email';
export const FIELD = {
	code: 'cf__4c2d9e8f0a1b4c3d',
	label: 'Delay, minutes',
	typed: '30',
	value: 30,
};
/** Connection settings as a user picks them: top level, then the nested step after a refresh. */
export const SETTINGS = [
	['crm', 'Pipedrive'],
	['mailer', 'Mailchimp'],
];
export const NESTED = ['pipedriveFilter', 'All deals'];
export const ACTION = 'Ensure an installation exists in the desired state';
export const LONG = 3 * UI_TIMEOUT; // an execution on a busy machine

export const input = (page, name) =>
	page.getByTestId(`parameter-input-${name}`).locator('input, textarea').first();

/**
 * Partner mode: a credential of the Albato Partner API type (n8n's select lists both types and
 * sets the hidden Authentication to match). Run alone, that is the imported one; in run.mjs, the
 * one the partner-mode editor test created.
 */
export async function choosePartnerCredential(page) {
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
export async function executeAndReadJson(page, expect) {
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
export async function pickFieldValue(page) {
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
export async function emulatorField(emulator) {
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
