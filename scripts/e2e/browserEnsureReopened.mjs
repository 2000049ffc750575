// The Ensure editor test, part 3: a saved workflow reopened with End User ID as an expression
// (browserEnsure.mjs runs it).
import { openOptions, shoot, UI_TIMEOUT } from './browser.mjs';
import { CUSTOMER, LONG, SOLUTION, TEMPLATE, TITLE } from './lib/ensureEditor.mjs';

// ---- 3. a reopened workflow, End User ID an expression ---------------------------------------

/** n8n's REST API from inside the signed-in page (its auth cookie is bound to the browser ID). */
async function rest(page, method, urlPath, body) {
	return page.evaluate(
		async ({ method, urlPath, body }) => {
			const response = await fetch(`/rest${urlPath}`, {
				method,
				headers: {
					'content-type': 'application/json',
					'browser-id': localStorage.getItem('n8n-browserId') ?? '',
				},
				body: body ? JSON.stringify(body) : undefined,
			});
			const text = await response.text();
			if (!response.ok) throw new Error(`${method} /rest${urlPath}: ${response.status} ${text}`);
			return JSON.parse(text).data;
		},
		{ method, urlPath, body },
	);
}

/** Manual trigger → "Customer" (Edit Fields: customerId) → Ensure with End User ID {{ $json.customerId }}. */
function reopenedWorkflow(credential) {
	return {
		name: `Ensure, End User ID from the previous node (e2e ${CUSTOMER})`,
		nodes: [
			{
				parameters: {},
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: {
					assignments: {
						assignments: [{ id: 'c1', name: 'customerId', value: CUSTOMER, type: 'string' }],
					},
					options: {},
				},
				name: 'Customer',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [220, 0],
			},
			{
				parameters: {
					authentication: 'partnerApi',
					endUserId: '={{ $json.customerId }}',
					resource: 'installation',
					operation: 'ensure',
					solutionId: { __rl: true, mode: 'list', value: SOLUTION },
					title: TITLE,
					templateIds: [],
					desiredFields: { field: [{ automation: '', step: '', code: '', value: '' }] },
				},
				name: 'Ensure',
				type: 'n8n-nodes-albato-solutions.albatoSolutions',
				typeVersion: 2,
				position: [440, 0],
				credentials: { albatoPartnerApi: { id: credential.id, name: credential.name } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Customer', type: 'main', index: 0 }]] },
			Customer: { main: [[{ node: 'Ensure', type: 'main', index: 0 }]] },
		},
		settings: {},
	};
}

export async function reopened(page, baseUrl, checks, shots) {
	const workflow = await checks.step(
		'a saved workflow: End User ID {{ $json.customerId }}',
		async () => {
			const credentials = await rest(page, 'GET', '/credentials');
			const credential = credentials.find((c) => c.type === 'albatoPartnerApi');
			if (!credential) throw new Error('no Albato Partner API credential');
			return rest(page, 'POST', '/workflows', reopenedWorkflow(credential));
		},
	);
	await page.goto(`${baseUrl}/workflow/${workflow.id}`);
	const ensureNode = page.getByTestId('canvas-node').filter({ hasText: 'Ensure' }).first();
	await checks.step('reopened, Ensure opened, "Execute previous nodes" run', async () => {
		await ensureNode.dblclick();
		await page.getByTestId('ndv').waitFor({ timeout: UI_TIMEOUT });
		await page.getByTestId('execute-previous-node').first().click();
		await page
			.getByTestId('ndv-input-panel')
			.getByText(CUSTOMER)
			.first()
			.waitFor({ timeout: LONG });
	});
	// n8n 2.41 loads an option list when the node opens and when a parameter it depends on
	// changes; End User ID's text (the expression) does not change when the previous node runs,
	// so the lists load on the node's next opening (what its hint says).
	await checks.step('Ensure closed and opened again', async () => {
		await page.getByTestId('ndv-close-button').click();
		await page.getByTestId('ndv').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
		await ensureNode.dblclick();
		await page.getByTestId('ndv').waitFor({ timeout: UI_TIMEOUT });
		await page.getByTestId('ndv-input-panel').getByText(CUSTOMER).first().waitFor();
	});
	const templates = await checks.step(
		'Template Names load once Ensure is opened again after the previous node ran',
		() => openOptions(page, 'templateIds'),
	);
	checks.ok(
		`Template Names lists "${TEMPLATE}"`,
		templates.some((text) => text.includes(TEMPLATE)),
		templates.join(' | '),
	);
	await page.keyboard.press('Escape');
	const automations = await checks.step('Field Values → Automation loads too', () =>
		openOptions(page, 'automation'),
	);
	checks.ok(
		`Automation lists "${TEMPLATE}"`,
		automations.some((text) => text.includes(TEMPLATE)),
		automations.join(' | '),
	);
	shots.push(await shoot(page, 'n8n-ensure-reopened.png'));
	await page.keyboard.press('Escape');
}
