// The first hour in the node panel (partner mode, the partner's credential), after the credential
// checks of browserFirstHour.mjs:
//
//  - Check Connection with no customer yet: End User ID's tooltip says any existing customer will
//    do and to create one first with End User → Create; an unknown customer's 404 in the
//    Installation picker says first that the master token was accepted (and in which form), then
//    that the End User ID is unknown, with no "404 - " and the ID shown once, hyphens plain.
//  - No red on what the node asked for: fleet-change's Ensure, its Field typed as its label
//    ("Subject"), opened for a customer with the installation: no parameter issue on Field Values;
//    Field Values → Automation offers only the template chosen in Template Names (1011).
//  - Run → Get New: the notice says "one input item per customer; one output item per run, or per
//    incident"; Max Remembered Runs in Total is gone (node version 5), Allowed Lateness explains; no
//    repository path in the panel or that tooltip.

import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { addAction, openOptions, openOurNodeInPanel, UI_TIMEOUT } from './browser.mjs';
import { customerSession, installFor } from './partner.mjs';

const flat = (text) => text.replace(/\s+/g, ' ').trim();

/** A new workflow with our node's action, the partner credential picked in it. */
async function newNode(page, ctx, action) {
	await page.goto(`${ctx.baseUrl}/workflow/new`);
	await page.getByTestId('canvas-plus-button').waitFor({ timeout: UI_TIMEOUT });
	await openOurNodeInPanel(page, () => page.getByTestId('canvas-plus-button').click());
	await addAction(page, action);
	await page.getByTestId('node-credentials-select').click();
	await page.getByRole('option').filter({ hasText: ctx.credentialName }).first().click();
}

/** A parameter's description as its label's tooltip shows it (`opening`: its first words). */
async function tooltipOf(page, parameter, opening) {
	const item = page
		.getByTestId('parameter-item')
		.filter({ has: page.getByTestId(`parameter-input-${parameter}`) })
		.first();
	await item.hover(); // the label's (?) icon shows while the parameter is hovered
	await item.getByTestId('input-label').locator('[class*="infoIcon"] svg').first().hover();
	const tooltip = page.getByText(opening).filter({ visible: true }).last();
	await tooltip.waitFor({ timeout: UI_TIMEOUT });
	return flat(await tooltip.innerText());
}

/** End User ID's tooltip, then the Installation picker for an unknown End User ID. */
async function checkNoCustomerYet(page, ctx) {
	const { checks } = ctx;
	await checks.step('Get an installation, partner credential picked', () =>
		newNode(page, ctx, 'Get an installation'),
	);
	const tip = await checks.step("End User ID's tooltip", () =>
		tooltipOf(page, 'endUserId', 'Your own ID of the customer'),
	);
	checks.ok(
		"End User ID's tooltip: any existing customer will do; with none, End User → Create first",
		/any existing customer/.test(tip) && /create one first with End User → Create/.test(tip),
		tip,
	);
	const shown = await checks.step('Installation picker for an unknown End User ID', async () => {
		const endUserId = page.getByTestId('parameter-input-endUserId').locator('input, textarea');
		await endUserId.first().fill('cust-alpah');
		await page.getByTestId('resource-locator-installationId').getByTestId('rlc-input').click();
		const error = page.getByTestId('rlc-error-container').filter({ visible: true }).first();
		await error.getByText(/Could not load the installations/).waitFor({ timeout: UI_TIMEOUT });
		return flat(await error.innerText());
	});
	checks.ok(
		'the picker error: no "404 - ", the End User ID once with plain hyphens',
		!/\b\d{3} - /.test(shown) && (shown.match(/cust.alpah/g) ?? []).join() === 'cust-alpah',
		shown,
	);
	checks.ok(
		'an unknown customer: "The master token was accepted (as …)" before "No end user"',
		/The master token was accepted \(as .+?\)\. No end user with this End User ID/.test(shown),
		shown,
	);
}

/** fleet-change as shipped, its Field typed as its label, for a customer with the installation. */
async function importFleetChange(ctx) {
	const customerId = `first-hour-${Date.now().toString(36)}`;
	await installFor(
		await customerSession(ctx.emulator, ctx.partner, customerId),
		'CRM Leads',
		false,
	);
	const file = path.join(ctx.repoRoot, 'examples/fleet-change.workflow.json');
	const workflow = JSON.parse(await readFile(file, 'utf8'));
	for (const node of workflow.nodes) {
		if (node.credentials?.albatoPartnerApi) node.credentials.albatoPartnerApi = ctx.credential;
		if (node.name !== 'Ensure new subject') continue;
		node.parameters.endUserId = customerId;
		node.parameters.desiredFields.field[0].code = 'Subject';
	}
	const { name, nodes, connections, settings } = workflow;
	const created = await ctx.n8n.rest('POST', '/workflows', {
		name: `${name} (first hour)`,
		nodes,
		connections,
		settings,
	});
	return created.id;
}

/** Ensure in fleet-change: no red; Automation offers the chosen template only. */
async function checkNoRed(page, ctx) {
	const { checks } = ctx;
	const id = await checks.step('fleet-change imported, Field typed as "Subject"', () =>
		importFleetChange(ctx),
	);
	const issues = await checks.step('opens "Ensure new subject", its lists loaded', async () => {
		await page.goto(`${ctx.baseUrl}/workflow/${id}`);
		const node = page.getByTestId('canvas-node').filter({ hasText: 'Ensure new subject' });
		await node.first().dblclick({ timeout: UI_TIMEOUT });
		const automation = page.getByTestId('parameter-input-automation').first();
		await automation.waitFor({ timeout: UI_TIMEOUT });
		await page.waitForTimeout(3000); // the option lists load after the panel opens
		return await page.getByTestId('ndv').getByTestId('parameter-issues').count();
	});
	checks.equal(
		'no red in the panel (Automation 1011 as shipped, Field typed as its label "Subject")',
		issues,
		0,
	);
	const automations = await checks.step('Field Values → Automation opened', () =>
		openOptions(page, 'automation'),
	);
	await page.keyboard.press('Escape');
	checks.ok(
		'Field Values → Automation offers only the template chosen in Template Names (1011)',
		automations.length === 1 && automations[0].includes('1011'),
		automations.join(' | '),
	);
}

/** Run → Get New's notice and its Options (version 5); no repository path in the panel. */
async function checkGetNew(page, ctx) {
	const { checks } = ctx;
	const panel = await checks.step('Run → Get New added', async () => {
		await newNode(page, ctx, 'Get new runs');
		const ndv = page.getByTestId('ndv').first();
		await ndv
			.getByText(/ended run/)
			.first()
			.waitFor({ timeout: UI_TIMEOUT });
		return flat(await ndv.innerText());
	});
	checks.ok(
		'Get New: "One input item per customer; one output item per run, or per incident"',
		panel.includes('One input item per customer; one output item per run, or per incident'),
		panel.slice(0, 600),
	);
	// Node version 5: Max Remembered Runs in Total is gone (windows keep nothing to size).
	const { offered, total } = await checks.step('Options → Allowed Lateness added', async () => {
		// Options' "Add Option": a select (collection-parameter-add) or a dropdown menu.
		const options = page
			.getByTestId('parameter-item')
			.filter({ has: page.getByText('Options', { exact: true }) })
			.last();
		const add = options.getByTestId('collection-parameter-add');
		await add.or(options.getByTestId('collection-parameter-add-dropdown')).first().click();
		const entry = page
			.getByTestId('collection-parameter-option')
			.or(page.getByRole('menuitem'))
			.filter({ visible: true });
		const names = (await entry.allInnerTexts()).join(' | ');
		await entry.filter({ hasText: 'Allowed Lateness' }).first().click();
		return { offered: names, total: await tooltipOf(page, 'latenessMinutes', /^How long/) };
	});
	checks.ok(
		'Max Remembered Runs in Total is not offered; Allowed Lateness says what it waits for',
		!offered.includes('Max Remembered Runs in Total') && /appear in the list/.test(total),
		`${offered} / ${total}`,
	);
	const shown = `${panel} ${total}`;
	checks.ok(
		'Get New: no repository path in the panel or that tooltip',
		!/\S+\.md\b/.test(shown),
		shown.match(/\S+\.md\b/g)?.join(', '),
	);
}

/**
 * `ctx`: baseUrl, checks, emulator, partner, n8n (REST, for the import), repoRoot, credential
 * ({ id, name } of the partner credential) and credentialName.
 */
export async function firstHourInTheNode(page, ctx) {
	await checkNoCustomerYet(page, ctx);
	await checkNoRed(page, ctx);
	await checkGetNew(page, ctx);
}
