// A parameter typed as an expression in the node's panel (browserExamples.mjs's first onboarding):
// its Fixed / Expression toggle, the text typed, the field left, then waited for until the node
// holds it (the editor's workflow store); the red triangle's message; a list reloaded.

import { UI_TIMEOUT } from './editorKit.mjs';
import { LONG } from './exampleEditor.mjs';
import { waitFor } from './proc.mjs';

/** Switch a parameter to Expression (its Fixed / Expression toggle) and type `text` into it. */
export async function typeAsExpression(page, parameter, text) {
	await typeAsExpressionIn(page, 0, parameter, text);
}

/** The parameter's own row (label, Fixed / Expression, issues): its nearest "parameter-item". */
const itemOf = (target) => target.locator('xpath=ancestor::*[@data-test-id="parameter-item"][1]');

/** The message of the red triangle (parameter issues) next to a parameter, from its tooltip. */
export async function issueMessage(page, parameter, expect) {
	const issues = itemOf(page.getByTestId(`parameter-input-${parameter}`).first()).getByTestId(
		'parameter-issues',
	);
	await issues.waitFor({ timeout: UI_TIMEOUT });
	await issues.hover();
	const tooltip = page.getByText(expect).last();
	await tooltip.waitFor({ timeout: UI_TIMEOUT });
	return (await tooltip.innerText()).replace(/\s+/g, ' ');
}

/**
 * Field's list depends on Step: once Step's value reaches the node, Field's list loads again (and
 * fails the same way, no installation yet). Typed into before that, Field was seen emptied by the
 * reload on a busy machine, though the editor still showed the text: wait for it.
 */
export async function fieldListReloaded(page, index) {
	const field = page.getByTestId('parameter-input-code').nth(index);
	const shown = () =>
		field.evaluate((el) => [...el.querySelectorAll('input')].map((i) => i.value).join(' '));
	await waitFor(
		`Field #${index + 1}'s list to reload after Step`,
		async () => /Error fetching options/.test(await shown()),
		{ timeoutMs: LONG, intervalMs: 200 },
	);
}

/** typeAsExpression for the `index`th parameter of that name (a second Field Values entry). */
async function typeAsExpressionIn(page, index, parameter, text) {
	const target = page.getByTestId(`parameter-input-${parameter}`).nth(index);
	const editor = target.locator('.cm-content').first();
	// The toggle shows on hover, and not while the list is loading: retried, bounded.
	const deadline = Date.now() + UI_TIMEOUT;
	for (;;) {
		await target.hover();
		await itemOf(target)
			.getByTestId('radio-button-expression')
			.click({ timeout: 4000 })
			.catch(() => {});
		if (
			await editor.waitFor({ timeout: 4000 }).then(
				() => true,
				() => false,
			)
		)
			break;
		if (Date.now() > deadline) throw new Error(`${parameter} #${index + 1}: no Expression toggle`);
	}
	await editor.click();
	await editor.press('Control+A');
	await editor.pressSequentially(text);
	await waitFor(
		`${parameter} #${index + 1}'s expression to read "${text}"`,
		async () => (await editor.innerText()).trim() === text,
		{ timeoutMs: UI_TIMEOUT, intervalMs: 200 },
	);
	// Leave the field (its value is handed to the node on blur; a Step changed after Field would
	// clear Field, which depends on it).
	await page.getByTestId('ndv').getByText('Parameters', { exact: true }).first().click();
	await waitFor(
		`${parameter} #${index + 1} to lose the focus`,
		async () => !(await editor.evaluate((el) => el.contains(el.ownerDocument.activeElement))),
		{ timeoutMs: UI_TIMEOUT, intervalMs: 100 },
	);
	// The inline expression editor hands its text to the node after a pause, and closing the panel
	// before then drops it (seen on a busy machine: Field empty on reopening). The red triangle is
	// no sign: it goes as soon as the bare "=" of the toggle arrives. So: until the node holds it.
	await nodeHolds(page, parameter, `=${text}`, index);
}

/**
 * Waits until the `index`th `parameter` of the open workflow's Albato node holds `value`: read from
 * the editor's workflow store (n8n 2.41's "workflowDocuments" stores, the node's own parameters).
 */
export async function nodeHolds(page, parameter, value, index = 0) {
	const needle = JSON.stringify({ [parameter]: value }).slice(1, -1);
	const held = () =>
		page.evaluate((needle) => {
			// In the page: the editor's Vue app and its Pinia stores.
			const pinia =
				globalThis.document.querySelector('#app')?.__vue_app__?.config.globalProperties.$pinia;
			if (!pinia) return -1;
			let count = 0;
			for (const [id, store] of pinia._s)
				if (id.startsWith('workflowDocuments/'))
					for (const node of Object.values(store.allNodes ?? []))
						if (/albato/i.test(node.type))
							count += JSON.stringify(node.parameters).split(needle).length - 1;
			return count;
		}, needle);
	await waitFor(
		`${parameter} #${index + 1} to reach the node (${needle})`,
		async () => {
			const count = await held();
			if (count < 0) throw new Error("the editor's workflow store was not found");
			return count > index;
		},
		{ timeoutMs: LONG, intervalMs: 200 },
	);
}
