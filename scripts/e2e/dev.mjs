// `npm run dev`: the emulator plus a real n8n editor with our package loaded, the emulator's
// credential and the examples/ workflows imported, and the owner account created, so you can
// click through the node. Runs until Ctrl-C; everything it started stops with it.
//
// Env: N8N_E2E_PORT (n8n's port, default a free one), EMULATOR_PORT (default 4010, 0 = free),
// N8N_E2E_USER_FOLDER (keep n8n's data between runs; default a fresh temp folder).

import { rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Emulator } from './lib/emulator.mjs';
import { ensureN8n } from './lib/install.mjs';
import { N8nInstance, OWNER } from './lib/n8n.mjs';
import { isShuttingDown, killAll } from './lib/proc.mjs';
import { importFixtures, WORKFLOWS } from './lib/setup.mjs';
import { importPartnerFixtures } from './partner.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

async function main() {
	const install = await ensureN8n();
	const emulator = await Emulator.start(repoRoot, {
		port: Number(process.env.EMULATOR_PORT ?? 4010),
		echo: true,
	});

	const userFolder = process.env.N8N_E2E_USER_FOLDER
		? path.resolve(process.env.N8N_E2E_USER_FOLDER)
		: undefined;
	if (userFolder) await mkdir(userFolder, { recursive: true });
	const n8n = await N8nInstance.create(install, repoRoot, { userFolder });
	// A temp folder is ours to remove; a given one is kept (that is why it was given). 'exit'
	// runs after proc.mjs has killed n8n.
	if (!userFolder)
		process.on('exit', () => rmSync(n8n.userFolder, { recursive: true, force: true }));
	// Importing twice is harmless: same ids, so the credential's URL and token are refreshed.
	await importFixtures(n8n, repoRoot, emulator);
	const partnerFixtures = await importPartnerFixtures(n8n, emulator, repoRoot);

	console.log('starting n8n…');
	await n8n.start();
	await n8n.loginOwner();

	console.log(`
n8n editor      ${n8n.baseUrl}
login           ${OWNER.email} / ${OWNER.password}
workflows       ${n8n.baseUrl}/workflow/${WORKFLOWS.onboarding.id}   ${n8n.baseUrl}/workflow/${WORKFLOWS.trigger.id}
credential      "Albato Solutions (emulator)" → ${emulator.baseUrl}
partner mode    "${partnerFixtures.credential}" (partner ${partnerFixtures.partner.name}); ${partnerFixtures.ids.map((id) => `${n8n.baseUrl}/workflow/${id}`).join('   ')}
emulator token  ${emulator.token}
emulator state  ${emulator.baseUrl}/__emulator/state
n8n data        ${n8n.userFolder} (server log: ${n8n.logFile})

Ctrl-C stops n8n and the emulator.`);

	// Stay up until a signal (proc.mjs kills the children on SIGINT/SIGTERM) or n8n dies.
	const { code, signal } = await new Promise((resolve) =>
		n8n.server.once('exit', (c, s) => resolve({ code: c, signal: s })),
	);
	if (signal || isShuttingDown()) return; // we stopped it (Ctrl-C): proc.mjs is already exiting
	console.error(`n8n exited with ${code}; its log is ${n8n.logFile}`);
	await killAll();
	process.exit(1);
}

main().catch(async (error) => {
	console.error(error instanceof Error ? error.message : error);
	await killAll();
	process.exit(1);
});
