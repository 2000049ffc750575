// Debian's Chromium for playwright-core: Playwright's own browser builds are downloaded from
// outside the npm registry, which this project never does.

import { existsSync } from 'node:fs';

import { runOk } from './proc.mjs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export const CHROMIUM_ARGS = [
	'--no-sandbox', // we run as root in a container
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	// No calls home: the machine has loopback only, and waiting on them slows start-up.
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** Path of a Chromium binary; installs Debian's package when we are root and it is missing. */
export async function ensureChromium(log = console.log) {
	const configured = process.env.CHROMIUM_PATH;
	if (configured) {
		if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH=${configured} does not exist`);
		return configured;
	}
	const found = CANDIDATES.find((candidate) => existsSync(candidate));
	if (found) return found;
	if (process.getuid?.() !== 0) {
		throw new Error(
			"Chromium not found: install Debian's package (sudo apt-get install chromium) or set CHROMIUM_PATH",
		);
	}
	log("installing Debian's chromium package (apt-get, first run only)…");
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	await runOk('apt-get', ['update', '-qq'], { env, timeoutMs: 5 * 60_000 });
	await runOk('apt-get', ['install', '-y', '-qq', 'chromium'], { env, timeoutMs: 15 * 60_000 });
	const installed = CANDIDATES.find((candidate) => existsSync(candidate));
	if (!installed) throw new Error('apt-get installed chromium, but no binary was found');
	return installed;
}
