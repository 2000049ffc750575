// The loopback delay proxy (delayProxy.ts) started in front of the emulator, for the benches.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { startProcess, waitFor } from '../e2e/lib/proc.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsNode = path.join(repoRoot, 'node_modules', 'ts-node', 'dist', 'bin.js');

/** The proxy (`rttMs` of round trip) in front of the emulator; gives its URL and its process. */
export async function startDelayProxy(emulator, rttMs) {
	const port = new URL(emulator.baseUrl).port;
	let proxyUrl;
	const child = startProcess(
		process.execPath,
		[tsNode, '--transpile-only', 'scripts/lib/delayProxy.ts', port, String(rttMs)],
		{
			cwd: repoRoot,
			onLine: (line) => {
				const match = /^PROXY \d+ (\d+)$/.exec(line);
				if (match) proxyUrl = `https://127.0.0.1:${match[1]}`;
			},
		},
	);
	await waitFor('the delay proxy', () => proxyUrl, { timeoutMs: 60_000, intervalMs: 100 });
	return { proxyUrl, child };
}
