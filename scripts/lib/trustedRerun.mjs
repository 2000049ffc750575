// The benches' parent process: a throw-away certificate (scripts/lib/tlsCert.ts, Debian's openssl),
// then the same script again with its CA trusted (NODE_EXTRA_CA_CERTS) and the certificate in
// BENCH_N8N_CERT, so n8n reaches the emulator over HTTPS as it reaches Albato. The certificate's
// folder is removed when the child ends.

import { execFileSync, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsNode = path.join(repoRoot, 'node_modules', 'ts-node', 'dist', 'bin.js');

/** Runs `scriptUrl` (the caller's import.meta.url) again as the child; its exit code becomes ours. */
export async function rerunWithTrustedCert(scriptUrl) {
	const cert = JSON.parse(
		execFileSync(process.execPath, [tsNode, '--transpile-only', 'scripts/lib/tlsCert.ts'], {
			cwd: repoRoot,
			encoding: 'utf8',
			env: { ...process.env, BENCH_CERT_DAYS: String(certDays()) },
		}),
	);
	try {
		const child = spawn(process.execPath, [fileURLToPath(scriptUrl), ...process.argv.slice(2)], {
			stdio: 'inherit',
			env: {
				...process.env,
				NODE_EXTRA_CA_CERTS: cert.caFile,
				BENCH_N8N_CERT: JSON.stringify(cert),
			},
		});
		const stopChild = () => child.kill('SIGTERM');
		process.on('SIGINT', stopChild);
		process.on('SIGTERM', stopChild);
		process.exitCode = await new Promise((resolve) =>
			child.on('exit', (code) => resolve(code ?? 1)),
		);
	} finally {
		await rm(cert.dir, { recursive: true, force: true });
	}
}

/** 2 days, and with `--weeks N` (bench:fleet: workers on a clock N weeks ahead) those weeks too. */
function certDays() {
	const i = process.argv.indexOf('--weeks');
	return 2 + (i === -1 ? 0 : 7 * (Number(process.argv[i + 1]) || 0) + 7);
}
