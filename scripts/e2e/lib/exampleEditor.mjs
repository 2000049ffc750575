// An example workflow in the editor, as a partner uses it (browserExamples.mjs): imported from its
// file (the input of "Import from File…"), a node opened and closed, the credential picked, a Set
// node's JSON replaced, the workflow run from its "Run now" trigger's button and read back through
// n8n's REST API, and what a node's output panel shows.

import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { UI_TIMEOUT } from './editorKit.mjs';
import { waitFor } from './proc.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** An execution on a busy machine. */
export const LONG = 3 * UI_TIMEOUT;

export const canvasNode = (page, name) =>
	page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);

export const input = (page, name) =>
	page.getByTestId(`parameter-input-${name}`).locator('input, textarea').first();

/** A new workflow from an example file: the input "Import from File…" opens. Returns its ID. */
export async function importExample(page, baseUrl, file, aNodeName) {
	await page.goto(`${baseUrl}/workflow/new`);
	await page
		.getByTestId('workflow-import-input')
		.setInputFiles(path.join(repoRoot, 'examples', file));
	await canvasNode(page, aNodeName).waitFor({ timeout: UI_TIMEOUT });
	// n8n saves an imported workflow at once and puts its ID in the address.
	await page.waitForURL(/\/workflow\/[A-Za-z0-9]+(\?|$)/, { timeout: UI_TIMEOUT });
	return /\/workflow\/([A-Za-z0-9]+)/.exec(page.url())[1];
}

export async function openNode(page, name) {
	await canvasNode(page, name).dblclick();
	await page.getByTestId('ndv').waitFor({ timeout: UI_TIMEOUT });
}

export async function closeNode(page) {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
}

/** The credential select shows the chosen credential's name; choose `name` unless it is chosen. */
export async function pickCredential(page, name) {
	const select = page.getByTestId('node-credentials-select');
	await select.waitFor({ timeout: UI_TIMEOUT });
	const chosen = () => select.locator('input').first().inputValue();
	if ((await chosen()) === name) return;
	await select.click();
	await page.getByRole('option').filter({ hasText: name }).first().click();
	await waitFor(`credential "${name}" chosen`, async () => (await chosen()) === name, {
		timeoutMs: UI_TIMEOUT,
		intervalMs: 200,
	});
}

/** Open each Albato node of the workflow and pick the partner's credential there. */
export async function pickCredentialEverywhere(page, nodeNames, credentialName) {
	for (const name of nodeNames) {
		await openNode(page, name);
		await pickCredential(page, credentialName);
		await closeNode(page);
	}
}

/**
 * What a partner sees once the example is open and the credential picked: its sticky note saying
 * what to replace (`note`), and no warning triangle on its Albato nodes.
 */
export async function checkOpened(page, checks, example, albatoNodes, note) {
	const sticky = page.locator('[data-node-type="n8n-nodes-base.stickyNote"]').first();
	const text = (await sticky.innerText().catch(() => '')).replace(/\s+/g, ' ');
	checks.ok(
		`${example}: opens with its sticky note (${note})`,
		note.test(text),
		text.slice(0, 400),
	);
	const warned = [];
	for (const name of albatoNodes)
		if ((await canvasNode(page, name).getByTestId('node-issues').count()) > 0) warned.push(name);
	checks.equal(
		`${example}: no warning on its Albato nodes once the credential is picked`,
		warned,
		[],
	);
}

/**
 * Replace the JSON of a Set node in raw mode (its "JSON Output" code editor): the keys go to the
 * editor itself (select all, then the text inserted as one input, as a paste does; typed brackets
 * would be closed twice by the editor).
 */
export async function setJson(page, nodeName, value) {
	const text = JSON.stringify(value);
	await openNode(page, nodeName);
	const editor = page.getByTestId('parameter-input-jsonOutput').locator('.cm-content').first();
	await editor.click();
	await editor.press('Control+A');
	await editor.press('Delete');
	await page.keyboard.insertText(text);
	await waitFor(
		`${nodeName}'s JSON replaced`,
		async () => (await editor.innerText()).replace(/\s+/g, '') === text.replace(/\s+/g, ''),
		{ timeoutMs: UI_TIMEOUT, intervalMs: 200 },
	);
	await closeNode(page);
}

/**
 * Run the workflow from its "Run now" trigger's button and wait for the stored execution (n8n
 * saves manual executions); returns it with its run data decoded.
 */
export async function runNow(page, n8n, workflowId) {
	const before = new Set((await n8n.executions(workflowId)).map((e) => String(e.id)));
	// The trigger's own button shows when the pointer is on the trigger ("Run now").
	await canvasNode(page, 'Run now').hover();
	await page.getByTestId('execute-workflow-button-Run now').click();
	const done = await waitFor(
		'the execution started from the editor to finish',
		async () =>
			(await n8n.executions(workflowId)).find(
				(e) => !before.has(String(e.id)) && e.stoppedAt && !['running', 'new'].includes(e.status),
			),
		{ timeoutMs: 4 * LONG, intervalMs: 1000 },
	);
	const execution = await n8n.execution(done.id);
	return { id: String(done.id), status: execution.status, data: execution.data };
}

export const outputOf = (run, name) =>
	(run.data.resultData.runData[name]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);

/** What the node's output panel shows (its error, for a failed node), as one line of text. */
export async function shownOutput(page, nodeName, expect) {
	await openNode(page, nodeName);
	const output = page.getByTestId('output-panel');
	let text = '';
	await waitFor(
		`${nodeName}'s output to show ${expect}`,
		async () => expect.test((text = (await output.innerText()).replace(/\s+/g, ' '))),
		{ timeoutMs: UI_TIMEOUT, intervalMs: 300 },
	).catch(() => {});
	await closeNode(page);
	return text;
}
