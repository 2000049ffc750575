/**
 * The bench's parent process: the certificate, the emulators, the round-trip proxies, then the
 * measuring child, trusting the throw-away CA (NODE_EXTRA_CA_CERTS) for this run only.
 */
import { spawn, type ChildProcess } from 'child_process';
import path from 'path';

import { startEmulatorChild } from '../bench-emulator';
import { makeTestCertificate, type TestCertificate } from '../lib/tlsCert';
import { ENTRY, RTTS } from './options';

type Emulator = Awaited<ReturnType<typeof startEmulatorChild>>;

function waitForLines(
	child: ChildProcess,
	pattern: RegExp,
	count: number,
): Promise<RegExpExecArray[]> {
	return new Promise((resolve, reject) => {
		const found: RegExpExecArray[] = [];
		let out = '';
		child.on('exit', (code) => reject(new Error(`child exited with ${code}`)));
		child.stdout!.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			const lines = out.split('\n');
			out = lines.pop()!;
			for (const line of lines) {
				const match = pattern.exec(line);
				if (match) found.push(match);
				if (found.length === count) resolve(found);
			}
		});
	});
}

export async function parent(): Promise<void> {
	const began = Date.now();
	const cert = makeTestCertificate();
	const children: ChildProcess[] = [];
	try {
		const emulator = await startEmulatorChild([
			'--tls-cert',
			cert.certFile,
			'--tls-key',
			cert.keyFile,
		]);
		children.push(emulator.child);
		// Plain HTTP for the heap measure: 10,000 TLS handshakes would only add minutes, not heap.
		const plain = await startEmulatorChild();
		children.push(plain.child);
		const proxy = startProxy(new URL(emulator.baseUrl).port);
		children.push(proxy);
		const proxies = await waitForLines(proxy, /^PROXY (\d+) (\d+)$/, RTTS.length);
		const env = measureEnv(cert, emulator, plain, proxies);
		console.log(
			`HTTPS emulator ${emulator.baseUrl} (throw-away CA, trusted by the measuring process only); round-trip proxies ${proxies.map((m) => `${m[1]} ms → :${m[2]}`).join(', ')}`,
		);
		const measure = spawn(
			process.execPath,
			['-r', 'ts-node/register/transpile-only', ENTRY, '--measure', ...process.argv.slice(2)],
			{ stdio: 'inherit', env },
		);
		children.push(measure);
		const code = await new Promise<number | null>((resolve) => measure.on('exit', resolve));
		if (code !== 0) throw new Error(`the measurements failed (exit ${code})`);
		console.log(`${Math.round((Date.now() - began) / 1000)} s in all`);
	} finally {
		for (const child of children) {
			child.removeAllListeners('exit');
			child.kill('SIGTERM');
		}
		cert.remove();
	}
}

/** The loopback proxies adding each round trip in front of the emulator's port. */
function startProxy(emulatorPort: string): ChildProcess {
	return spawn(
		process.execPath,
		[
			'-r',
			'ts-node/register/transpile-only',
			path.join(__dirname, '..', 'lib', 'delayProxy.ts'),
			emulatorPort,
			RTTS.join(','),
		],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
}

/** The measuring child's environment: where the emulators and proxies answer, the CA to trust. */
function measureEnv(
	cert: TestCertificate,
	emulator: Emulator,
	plain: Emulator,
	proxies: RegExpExecArray[],
): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {
		...process.env,
		NODE_EXTRA_CA_CERTS: cert.caFile,
		BENCH_EMULATOR: emulator.baseUrl,
		BENCH_EMULATOR_PLAIN: plain.baseUrl,
		BENCH_TOKEN: emulator.token,
		BENCH_PROXIES: JSON.stringify(
			Object.fromEntries(proxies.map((m) => [m[1], `https://127.0.0.1:${m[2]}`])),
		),
	};
	// Loopback only: a proxy from the environment must not carry these calls.
	for (const key of [
		'HTTP_PROXY',
		'http_proxy',
		'HTTPS_PROXY',
		'https_proxy',
		'ALL_PROXY',
		'all_proxy',
	])
		delete env[key];
	return env;
}
