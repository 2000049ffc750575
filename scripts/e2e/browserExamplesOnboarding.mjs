// A first onboarding in the editor (browserExamples.mjs, 5): Installation → Ensure with Field
// Values for an end user with no installation. Solution, connection settings, template and
// Automation from their pickers; the Step picker cannot load and its message says what to type;
// Step and Field typed as expressions as it says; executed from the editor, the emulator then holds
// the installation with those field values.

import {
	addAction,
	openLocatorList,
	openOptions,
	openOurNodeInPanel,
	pickFromLocator,
	pickOption,
	refreshMapper,
	UI_TIMEOUT,
} from './browser.mjs';
import { canvasNode, closeNode, input, LONG, pickCredential } from './lib/exampleEditor.mjs';
import {
	fieldListReloaded,
	issueMessage,
	nodeHolds,
	typeAsExpression,
} from './lib/expressionEditor.mjs';
import { waitFor } from './lib/proc.mjs';
import { customerSession } from './partner.mjs';
import { customer, installationsOf, MAIL_STEP, TEMPLATE } from './browserExamplesCustomers.mjs';

const ONBOARD = {
	customer: customer('first'),
	title: 'First onboarding – lead sync',
	subject: 'Welcome aboard',
};
const ENSURE = 'Ensure an installation exists in the desired state';

export async function firstOnboarding(page, ctx) {
	const { baseUrl, emulator, checks, partner, credentialName } = ctx;
	await customerSession(emulator, partner, ONBOARD.customer);
	const userId = `${partner.name}:${ONBOARD.customer}`;
	checks.equal(
		`emulator: ${ONBOARD.customer} is an end user with no installation`,
		(await emulator.state()).installations.filter((i) => i.userId === userId).length,
		0,
	);
	await page.goto(`${baseUrl}/workflow/new`);
	await page.getByTestId('canvas-plus-button').waitFor({ timeout: UI_TIMEOUT });
	await checks.step('first onboarding: Ensure added, partner credential, End User ID', async () => {
		await openOurNodeInPanel(page, () => page.getByTestId('canvas-plus-button').click());
		await addAction(page, ENSURE);
		await pickCredential(page, credentialName);
		await page.getByTestId('parameter-input-endUserId').waitFor({ timeout: UI_TIMEOUT });
		await input(page, 'endUserId').fill(ONBOARD.customer);
	});
	await checks.step('first onboarding: Solution, Title, connection settings, template', () =>
		solutionAndTemplate(page),
	);
	await checkAutomationPicker(page, checks);
	await checkStepTyped(page, checks);
	await checkKept(page, checks);
	await checkExecuted(page, ctx, userId);
}

async function solutionAndTemplate(page) {
	await openLocatorList(page, 'solutionId');
	await pickFromLocator(page, '(101)');
	await page.getByTestId('parameter-input-crm').waitFor({ timeout: UI_TIMEOUT });
	await input(page, 'title').fill(ONBOARD.title);
	for (const [step, value] of [
		['crm', 'Pipedrive'],
		['mailer', 'Mailchimp'],
	]) {
		await openOptions(page, step);
		await pickOption(page, value);
	}
	await refreshMapper(page);
	await page.getByTestId('parameter-input-pipedriveFilter').waitFor({ timeout: UI_TIMEOUT });
	await openOptions(page, 'pipedriveFilter');
	await pickOption(page, 'All deals');
	await openOptions(page, 'templateIds');
	await pickOption(page, TEMPLATE);
	await page.getByTestId('parameter-input-templateIds').press('Escape');
}

async function checkAutomationPicker(page, checks) {
	const automations = await checks.step(
		'first onboarding: Field Values → Automation picker loads (from the templates)',
		async () => {
			await page
				.getByTestId('fixed-collection-add-top-level-button')
				.or(page.getByRole('button', { name: 'Add Field Value' }))
				.first()
				.click();
			await page.getByTestId('parameter-input-automation').waitFor({ timeout: UI_TIMEOUT });
			const listed = await openOptions(page, 'automation');
			await pickOption(page, TEMPLATE);
			return listed;
		},
	);
	checks.ok(
		`Automation picker offers "${TEMPLATE}"`,
		automations.some((text) => text.includes(TEMPLATE)),
		automations.join(' | '),
	);
}

/** Step cannot list: its message says what to type, and Step and Field are typed as it says. */
async function checkStepTyped(page, checks) {
	// No installation of the solution anywhere for this customer: the Step list cannot load. n8n
	// shows the list's error message in the red triangle's tooltip: it must say what to type.
	const message = await checks.step('first onboarding: Step shows why it cannot list', () =>
		issueMessage(page, 'step', /No installation of solution 101/),
	);
	checks.ok(
		"Step's message says to switch Step and Field to Expression and type the step's title and the field's label or code",
		/switch Step to Expression and type the step's title/.test(message) &&
			/Field to Expression and type the field's label as the step shows it \(or its code\)/.test(
				message,
			),
		message,
	);
	await checks.step(
		'first onboarding: Step and Field typed as the message says, Value typed',
		async () => {
			await typeAsExpression(page, 'step', MAIL_STEP);
			await fieldListReloaded(page, 0);
			await typeAsExpression(page, 'code', 'Subject');
			await input(page, 'value').fill(ONBOARD.subject);
			await nodeHolds(page, 'value', ONBOARD.subject);
		},
	);
}

/** What the node holds, not what the open panel shows: closed and opened again. */
async function checkKept(page, checks) {
	const reopened = async () => {
		await closeNode(page);
		await canvasNode(page, ENSURE).dblclick();
		await page.getByTestId('ndv').waitFor({ timeout: UI_TIMEOUT });
		await page.getByTestId('parameter-input-code').first().waitFor({ timeout: UI_TIMEOUT });
		const texts = async (name) =>
			Promise.all(
				(await page.getByTestId(`parameter-input-${name}`).all()).map(async (field) =>
					(
						await field.evaluate((el) =>
							[el.innerText, ...[...el.querySelectorAll('input')].map((i) => i.value)].join(' '),
						)
					).trim(),
				),
			);
		return { step: await texts('step'), code: await texts('code') };
	};
	const held = ({ step, code }) => step[0]?.includes(MAIL_STEP) && code[0]?.includes('Subject');
	const kept = await checks.step('first onboarding: the node reopened shows what was typed', () =>
		reopened(),
	);
	checks.ok(
		'first onboarding: the entry keeps Step and Field as typed',
		kept.step.length === 1 && held(kept),
		JSON.stringify(kept),
	);
}

/** "Execute step": the output says created, the emulator holds the installation and its subject. */
async function checkExecuted(page, { emulator, checks }, userId) {
	const output = await checks.step('first onboarding: "Execute step" succeeds', async () => {
		await page.getByTestId('node-execute-button').click();
		const panel = page.getByTestId('output-panel');
		const mode = panel.getByTestId('ndv-run-data-display-mode');
		await mode.waitFor({ timeout: LONG });
		await mode.getByText('JSON', { exact: true }).click();
		let text = '';
		await waitFor(
			'the output to show "created"',
			async () => /"created":/.test((text = (await panel.innerText()).replace(/\s+/g, ' '))),
			{ timeoutMs: LONG, intervalMs: 500 },
		);
		return text;
	});
	checks.ok(
		'first onboarding output: "created": true',
		/"created": true/.test(output),
		output.slice(0, 600),
	);
	const mine = installationsOf(await emulator.state(), userId, ONBOARD.title);
	checks.ok(
		`emulator: ${ONBOARD.customer} has the installation with the subject "${ONBOARD.subject}"`,
		mine.length === 1 && mine[0].fields[`${MAIL_STEP} → subject`] === ONBOARD.subject,
		JSON.stringify(mine),
	);
	await closeNode(page);
}
