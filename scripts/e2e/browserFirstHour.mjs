// The first hour of a new partner, in the editor. The Albato Partner API credential: its form
// choices show the token's place, and its test in n8n's modal passes with the right token where the
// service refuses Auto's first form (the emulator's noBasicUsername reading), says "most likely
// wrong" for a wrong token and "Could not reach" for a Base URL with nothing behind it. Then the
// node (browserFirstHourNode.mjs): End User ID's tooltip and an unknown customer's picker error,
// no red on fleet-change's Ensure, Run → Get New's notice.
//
// Used by browserExamples.mjs, last (so by run.mjs); `node scripts/e2e/browserFirstHour.mjs <n8n
// URL> <emulator URL> <emulator token>` runs it alone against `npm run dev`.

import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { inEditor, openOptions, runAgainstDev } from './browser.mjs';
import { firstHourInTheNode } from './browserFirstHourNode.mjs';
import {
	fillCredentialField,
	modal,
	openNewCredential,
	saveAndReadTest,
} from './credentialModal.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

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

/** The partner credential the node checks pick: the newest of its type before the modal adds one. */
export async function partnerCredential(n8n) {
	const credentials = (await n8n.rest('GET', '/credentials')).filter(
		(c) => c.type === 'albatoPartnerApi',
	);
	credentials.sort((a, b) => Date.parse(b.createdAt ?? 0) - Date.parse(a.createdAt ?? 0));
	if (credentials.length === 0) throw new Error('no Albato Partner API credential in n8n');
	return { id: credentials[0].id, name: credentials[0].name };
}

/** The credential form and its test (the choices, the verdicts, an unreachable Base URL). */
async function firstHourCredential(page, ctx) {
	const { baseUrl, checks, emulator, partner } = ctx;
	await checks.step('opens a new Albato Partner API credential', () =>
		openNewCredential(page, baseUrl, 'Albato Partner API'),
	);
	// ---- the choices as the editor renders them (HTML: a <tag> would vanish)
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
}

/**
 * The whole check in an open editor. `ctx`: baseUrl, checks, emulator, partner, n8n (REST, logged
 * in as the owner), repoRoot, credential and credentialName (partnerCredential, read before). The
 * credential it saves is deleted.
 */
export async function firstHourIn(page, ctx) {
	const ours = new Set((await ctx.n8n.rest('GET', '/credentials')).map((c) => c.id));
	try {
		await firstHourCredential(page, ctx);
	} finally {
		// The credential saved with a dead Base URL goes, so that nothing later picks it.
		for (const { id } of await ctx.n8n.rest('GET', '/credentials'))
			if (!ours.has(id)) await ctx.n8n.rest('DELETE', `/credentials/${id}`);
	}
	await firstHourInTheNode(page, ctx);
}

/** Standalone against `npm run dev`: a browser of its own. */
async function runAgainstRunningN8n({ baseUrl, emulator, checks }) {
	const n8n = await attachedN8n(baseUrl);
	const partner = await emulator.control('GET', '/partner');
	const credential = await partnerCredential(n8n);
	const ctx = { baseUrl, checks, emulator, partner, n8n, repoRoot, credential };
	Object.assign(ctx, { credentialName: credential.name });
	const editor = { baseUrl, checks, name: 'first-hour', failureDir: os.tmpdir(), log: console.log };
	await inEditor(editor, (page) => firstHourIn(page, ctx));
}

/** The running n8n (`npm run dev`), logged in as its owner. */
async function attachedN8n(baseUrl) {
	const { ensureN8n } = await import('./lib/install.mjs');
	const { N8nInstance } = await import('./lib/n8n.mjs');
	const attached = Object.assign(Object.create(N8nInstance.prototype), {
		baseUrl,
		install: await ensureN8n(),
	});
	await attached.loginOwner();
	return attached;
}

// Standalone: against a running `npm run dev`.
if (import.meta.url === pathToFileURL(process.argv[1]).href)
	await runAgainstDev(
		'browserFirstHour.mjs',
		'The first hour: the partner credential in the editor (Chromium)',
		runAgainstRunningN8n,
	);
