/**
 * Raw speed of the emulator: GET /solution/installation/5001 with a keep-alive client.
 *
 *   npx ts-node --transpile-only scripts/bench-emulator.ts [--requests 5000] [--concurrency 4] [--in-process]
 *
 * By default the emulator runs in a child process (its own core), so the client's work
 * is not counted against it. `measureEmulatorRps` is reusable against any running emulator.
 */
import { spawn, type ChildProcess } from 'child_process';
import http from 'http';
import path from 'path';

import { startEmulator } from '../emulator';

export interface RpsResult {
	requests: number;
	concurrency: number;
	seconds: number;
	rps: number;
	errors: number;
}

/** Sends `n` GETs of /solution/installation/5001 over `concurrency` keep-alive sockets; counts non-200s as errors. */
export async function measureEmulatorRps(
	baseUrl: string,
	token: string,
	n = 5000,
	concurrency = 4,
): Promise<RpsResult> {
	const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
	const url = new URL('/solution/installation/5001', baseUrl);
	const once = () =>
		new Promise<number>((resolve, reject) => {
			const req = http.get(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode ?? 0));
			});
			req.on('error', reject);
		});
	for (let i = 0; i < concurrency * 10; i++) await once(); // warm-up: JIT, sockets

	let next = 0;
	let errors = 0;
	const started = process.hrtime.bigint();
	const worker = async () => {
		while (next < n) {
			next++;
			if ((await once()) !== 200) errors++;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	agent.destroy();
	return { requests: n, concurrency, seconds, rps: n / seconds, errors };
}

/** Starts `emulator/cli.ts` on a free port (plus `args`, e.g. --tls-cert/--tls-key) and reads its base URL and token from stdout. */
export function startEmulatorChild(
	args: string[] = [],
): Promise<{ child: ChildProcess; baseUrl: string; token: string }> {
	const cli = path.join(__dirname, '..', 'emulator', 'cli.ts');
	const child = spawn(
		process.execPath,
		['-r', 'ts-node/register/transpile-only', cli, '--port', '0', '--quiet', ...args],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	return new Promise((resolve, reject) => {
		let out = '';
		child.on('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
		child.stdout!.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			const baseUrl = /Base URL: (\S+)/.exec(out)?.[1];
			const token = /Token \(user-1[^)]*\): (\S+)/.exec(out)?.[1];
			if (baseUrl && token) resolve({ child, baseUrl, token });
		});
	});
}

async function main(): Promise<void> {
	const arg = (name: string, fallback: number) => {
		const i = process.argv.indexOf(name);
		return i === -1 ? fallback : Number(process.argv[i + 1]);
	};
	const n = arg('--requests', 5000);
	const concurrency = arg('--concurrency', 4);
	const inProcess = process.argv.includes('--in-process');

	let result: RpsResult;
	if (inProcess) {
		const emu = await startEmulator();
		result = await measureEmulatorRps(emu.baseUrl, emu.token(), n, concurrency);
		await emu.close();
	} else {
		const { child, baseUrl, token } = await startEmulatorChild();
		try {
			result = await measureEmulatorRps(baseUrl, token, n, concurrency);
		} finally {
			child.removeAllListeners('exit');
			child.kill('SIGTERM');
		}
	}
	const where = inProcess ? 'same process as the client' : 'child process';
	console.log(
		`emulator (${where}): ${result.requests} x GET /solution/installation/5001, concurrency ${result.concurrency}, keep-alive`,
	);
	console.log(
		`${result.rps.toFixed(0)} requests/s (${result.seconds.toFixed(2)} s, ${result.errors} errors)`,
	);
	if (result.errors) process.exitCode = 1;
}

if (require.main === module) {
	main().catch((err) => {
		console.error(err);
		process.exit(1);
	});
}
