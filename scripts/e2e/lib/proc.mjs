// Child processes that never outlive the script, bounded waits, free ports.
//
// Every long-running child (emulator, n8n) is spawned `detached` so it leads its own process
// group: n8n starts a task-runner child of its own, and killing the group takes that down too.
// All groups are killed on normal exit, on an uncaught error and on Ctrl-C / SIGTERM.

import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import net from 'node:net';

const groups = new Set();

function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
	} catch {
		// already gone
	}
}

/** Kill every tracked group: SIGTERM, then SIGKILL for what is still there after `graceMs`. */
export async function killAll(graceMs = 5000) {
	const live = [...groups];
	for (const child of live) killGroup(child.pid, 'SIGTERM');
	const deadline = Date.now() + graceMs;
	while (Date.now() < deadline && live.some((c) => c.exitCode === null && c.signalCode === null)) {
		await sleep(100);
	}
	for (const child of live) killGroup(child.pid, 'SIGKILL');
	groups.clear();
}

/** Stop one tracked child (and its group) and wait for it, bounded. */
export async function stop(child, graceMs = 8000) {
	if (!child || !groups.has(child)) return;
	const exited = new Promise((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) resolve();
		else child.once('exit', resolve);
	});
	killGroup(child.pid, 'SIGTERM');
	const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), graceMs);
	await exited;
	clearTimeout(timer);
	// The leader may be gone while a grandchild (task runner) lingers.
	killGroup(child.pid, 'SIGKILL');
	groups.delete(child);
}

let handlersInstalled = false;
let shuttingDown = false;

/** True once a signal asked us to stop: children exiting then is expected, not an error. */
export const isShuttingDown = () => shuttingDown;
function installExitHandlers() {
	if (handlersInstalled) return;
	handlersInstalled = true;
	// 'exit' handlers must be synchronous: SIGKILL whatever is left.
	process.on('exit', () => {
		for (const child of groups) killGroup(child.pid, 'SIGKILL');
	});
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.on(signal, () => {
			shuttingDown = true;
			console.error(`\n${signal}: stopping child processes…`);
			void killAll(3000).finally(() => process.exit(130));
		});
	}
}

/**
 * Start a long-running child in its own process group. Output goes to `logFile` (and, with
 * `echo`, to our stdout too); `onLine` sees every output line (to spot "listening on …").
 */
export function startProcess(command, args, { cwd, env, logFile, echo = false, onLine } = {}) {
	installExitHandlers();
	const child = spawn(command, args, {
		cwd,
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	groups.add(child);
	const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
	for (const stream of [child.stdout, child.stderr]) {
		let pending = '';
		stream.on('data', (chunk) => {
			const text = chunk.toString();
			log?.write(text);
			if (echo) process.stdout.write(text);
			if (!onLine) return;
			pending += text;
			const lines = pending.split('\n');
			pending = lines.pop();
			for (const line of lines) onLine(line);
		});
	}
	child.once('exit', () => log?.end());
	return child;
}

/**
 * Run a command to completion with a time limit. Resolves `{ code, stdout, stderr, ms }`; the
 * child is tracked meanwhile so Ctrl-C takes it down, and it is killed when the limit passes.
 */
export function run(command, args, { cwd, env, timeoutMs = 120_000, echo = false } = {}) {
	installExitHandlers();
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd,
			env,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		groups.add(child);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (c) => {
			stdout += c;
			if (echo) process.stdout.write(c);
		});
		child.stderr.on('data', (c) => {
			stderr += c;
			if (echo) process.stderr.write(c);
		});
		const timer = setTimeout(() => {
			killGroup(child.pid, 'SIGKILL');
			reject(
				new Error(
					`${command} ${args.join(' ')} took longer than ${timeoutMs / 1000} s\n${tail(stdout + stderr)}`,
				),
			);
		}, timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			groups.delete(child);
			reject(error);
		});
		child.on('close', (code) => {
			clearTimeout(timer);
			groups.delete(child);
			killGroup(child.pid, 'SIGKILL'); // leftovers of the group (task runner of `n8n execute`)
			resolve({ code, stdout, stderr, ms: Date.now() - started });
		});
	});
}

/** Like `run`, but a non-zero exit is an error that carries the output's tail. */
export async function runOk(command, args, options) {
	const result = await run(command, args, options);
	if (result.code !== 0) {
		throw new Error(
			`${command} ${args.join(' ')} exited with ${result.code}\n${tail(result.stdout + result.stderr)}`,
		);
	}
	return result;
}

export function tail(text, lines = 40) {
	return text.split('\n').slice(-lines).join('\n');
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Poll `check` until it returns something truthy (which is returned), at most `timeoutMs`.
 * Errors thrown by `check` count as "not yet"; the last one is reported on timeout.
 */
export async function waitFor(what, check, { timeoutMs = 60_000, intervalMs = 500 } = {}) {
	const deadline = Date.now() + timeoutMs;
	let lastError;
	while (Date.now() < deadline) {
		try {
			const value = await check();
			if (value) return value;
		} catch (error) {
			if (error?.fatal) throw error; // no use waiting: what it waits for cannot happen any more
			lastError = error;
		}
		await sleep(intervalMs);
	}
	const reason = lastError ? ` (last error: ${lastError.message ?? lastError})` : '';
	throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${reason}`);
}

/** A TCP port that is free on 127.0.0.1 right now. */
export function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}
