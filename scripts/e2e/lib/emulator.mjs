// The Solution Installation Service emulator as a child process (it is TypeScript; ts-node runs
// it as `npm run emulator` does), driven through its HTTP control surface (`/__emulator/…`).

import path from 'node:path';

import { startProcess, stop, waitFor } from './proc.mjs';

export class Emulator {
	/** `args`: more CLI options, e.g. `--tls-cert`/`--tls-key` for HTTPS. */
	static async start(repoRoot, { port = 0, logFile, echo = false, args = [] } = {}) {
		const emulator = new Emulator();
		const tsNode = path.join(repoRoot, 'node_modules', 'ts-node', 'dist', 'bin.js');
		emulator.child = startProcess(
			process.execPath,
			[tsNode, '--transpile-only', 'emulator/cli.ts', '--port', String(port), ...args],
			{
				cwd: repoRoot,
				env: { ...process.env, TS_NODE_PROJECT: path.join(repoRoot, 'emulator', 'tsconfig.json') },
				logFile,
				echo,
				onLine: (line) => {
					const base = /^Base URL: (\S+)/.exec(line);
					if (base) emulator.baseUrl = base[1];
					const token = /^Token \(user-1[^)]*\): (\S+)/.exec(line);
					if (token) emulator.token = token[1];
				},
			},
		);
		let exitCode;
		emulator.child.once('exit', (code) => (exitCode = code));
		await waitFor(
			'the emulator to print its base URL and token',
			() => {
				if (exitCode !== undefined) throw new Error(`emulator exited with ${exitCode}`);
				return emulator.baseUrl && emulator.token;
			},
			{ timeoutMs: 60_000, intervalMs: 100 },
		);
		return emulator;
	}

	async control(method, urlPath, body) {
		const response = await fetch(`${this.baseUrl}/__emulator${urlPath}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`emulator ${method} ${urlPath}: ${response.status}`);
		const text = await response.text();
		return text ? JSON.parse(text) : undefined;
	}

	requests() {
		return this.control('GET', '/requests');
	}

	state() {
		return this.control('GET', '/state');
	}

	reset() {
		return this.control('POST', '/reset');
	}

	/** A service call as the end user (PLAY/PAUSE included: Node's fetch sends custom methods). */
	async call(method, urlPath, body) {
		const response = await fetch(`${this.baseUrl}${urlPath}`, {
			method,
			headers: {
				authorization: `Bearer ${this.token}`,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const json = await response.json();
		if (!response.ok)
			throw new Error(`${method} ${urlPath}: ${response.status} ${JSON.stringify(json)}`);
		return json.data ?? json;
	}

	async close() {
		await stop(this.child);
	}
}
