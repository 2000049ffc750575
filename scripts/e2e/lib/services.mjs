// Debian's Redis and PostgreSQL for the queue-mode run: installed with apt-get when missing (CI
// machines are fresh), then run as plain child processes on loopback, with their data in a
// temporary folder, and stopped by pid at the end (no system service is started or touched).
//
// PostgreSQL refuses to run as root. When we are root, its processes run as the `postgres`
// system user that the Debian package creates (`setpriv` switches user without a shell or PAM),
// and the data folder is handed to that user.

import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { freePort, run, runOk, startProcess, stop, waitFor } from './proc.mjs';

const isRoot = () => process.getuid?.() === 0;

/** The newest /usr/lib/postgresql/<version>/bin, or undefined. */
function postgresBinDir() {
	const base = '/usr/lib/postgresql';
	if (!existsSync(base)) return undefined;
	const versions = readdirSync(base).filter((v) =>
		existsSync(path.join(base, v, 'bin', 'postgres')),
	);
	versions.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(base, versions[0], 'bin') : undefined;
}

const haveRedis = () => existsSync('/usr/bin/redis-server');

/**
 * Make sure `redis-server` and PostgreSQL's server binaries exist; installs the Debian packages
 * `redis-server` and `postgresql` with apt-get when root, and otherwise says what to install.
 */
export async function ensureServices(log = console.log) {
	const missing = [];
	if (!haveRedis()) missing.push('redis-server');
	if (!postgresBinDir()) missing.push('postgresql');
	if (missing.length) {
		if (!isRoot())
			throw new Error(
				`missing Debian packages: ${missing.join(' ')} (sudo apt-get install -y ${missing.join(' ')})`,
			);
		const started = Date.now();
		log(`installing ${missing.join(' ')} with apt-get…`);
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		// A fresh machine may have no package lists yet.
		await runOk('apt-get', ['update', '-q'], { env, timeoutMs: 10 * 60_000 });
		await runOk('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], {
			env,
			timeoutMs: 15 * 60_000,
		});
		log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
	}
	const binDir = postgresBinDir();
	const { stdout: redisVersion } = await runOk('/usr/bin/redis-server', ['--version']);
	const { stdout: pgVersion } = await runOk(path.join(binDir, 'postgres'), ['--version']);
	return {
		postgresBin: binDir,
		versions: {
			redis: /v=(\S+)/.exec(redisVersion)?.[1] ?? redisVersion.trim(),
			postgres: /\) (\S+)/.exec(pgVersion)?.[1] ?? pgVersion.trim(),
		},
	};
}

/** `redis-server` on 127.0.0.1, no persistence. Returns `{ port, child, close() }`. */
export async function startRedis(dataDir, { logFile } = {}) {
	const port = await freePort();
	await mkdir(dataDir, { recursive: true });
	const child = startProcess(
		'/usr/bin/redis-server',
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--dir',
			dataDir,
			'--save',
			'',
			'--appendonly',
			'no',
			'--protected-mode',
			'yes',
		],
		{ logFile },
	);
	await waitFor('redis-server to accept connections', () => ping(port), {
		timeoutMs: 30_000,
		intervalMs: 200,
	});
	return { port, child, close: () => stop(child) };
}

/** A raw RESP PING; true on +PONG. */
async function ping(port) {
	const net = await import('node:net');
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.setTimeout(1000, () => socket.destroy());
		socket.on('error', () => resolve(false));
		socket.on('data', (data) => {
			resolve(data.toString().startsWith('+PONG'));
			socket.end();
		});
		socket.on('connect', () => socket.write('PING\r\n'));
	});
}

/**
 * A throw-away PostgreSQL cluster on 127.0.0.1 (trust auth on loopback only, fsync off: test data).
 * Returns `{ port, user, database, psql(sql), close() }`.
 */
export async function startPostgres(binDir, parentDir, { logFile } = {}) {
	const dataDir = await mkdtemp(path.join(parentDir, 'pg-'));
	const socketDir = path.join(dataDir, 'socket');
	const asPostgres = isRoot() ? await postgresUser() : undefined;
	const wrap = runAs(binDir, asPostgres);
	if (asPostgres) await chown(dataDir, asPostgres.uid, asPostgres.gid);
	const cluster = path.join(dataDir, 'cluster');
	const user = 'n8n';
	await runOk(...wrap('initdb', ['-D', cluster, '-U', user, ...INITDB_OPTIONS]), {
		timeoutMs: 120_000,
	});
	await mkdir(socketDir, { recursive: true });
	if (asPostgres) await chown(socketDir, asPostgres.uid, asPostgres.gid);
	const port = await freePort();
	const child = startProcess(
		...wrap('postgres', [
			...['-D', cluster, '-h', '127.0.0.1', '-p', String(port), '-k', socketDir],
			...SERVER_SETTINGS.flatMap((setting) => ['-c', setting]),
		]),
		{ logFile },
	);
	await untilReady(binDir, port, child);
	const database = 'n8n';
	const at = ['-h', '127.0.0.1', '-p', String(port), '-U', user];
	await runOk(path.join(binDir, 'createdb'), [...at, database]);
	const psql = async (sql) => {
		const { stdout } = await runOk(path.join(binDir, 'psql'), [
			...[...at, '-d', database],
			...['-At', '-F', '\t', '-c', sql],
		]);
		return stdout.trim()
			? stdout
					.trim()
					.split('\n')
					.map((line) => line.split('\t'))
			: [];
	};
	return { port, user, database, dataDir, child, psql, close: () => stop(child, 15_000) };
}

const INITDB_OPTIONS = ['--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'];
/** A throwaway cluster: fast, not durable. */
const SERVER_SETTINGS = [
	'fsync=off',
	'synchronous_commit=off',
	'full_page_writes=off',
	'max_connections=200',
];

/** A postgres binary's [command, args]: as the `postgres` user when run as root (setpriv). */
function runAs(binDir, asPostgres) {
	return (bin, args) =>
		asPostgres
			? [
					'/usr/bin/setpriv',
					[
						`--reuid=${asPostgres.uid}`,
						`--regid=${asPostgres.gid}`,
						'--clear-groups',
						path.join(binDir, bin),
						...args,
					],
				]
			: [path.join(binDir, bin), args];
}

/** Until pg_isready says the server accepts connections (throws if it exited meanwhile). */
async function untilReady(binDir, port, child) {
	let exitCode;
	child.once('exit', (code) => (exitCode = code));
	const pgIsReady = path.join(binDir, 'pg_isready');
	await waitFor(
		'postgres to accept connections',
		async () => {
			if (exitCode !== undefined) throw new Error(`postgres exited with ${exitCode}`);
			return (
				(await run(pgIsReady, ['-h', '127.0.0.1', '-p', String(port)], { timeoutMs: 5000 }))
					.code === 0
			);
		},
		{ timeoutMs: 60_000, intervalMs: 300 },
	);
}

/** uid/gid of the `postgres` system user the Debian package creates. */
async function postgresUser() {
	const { stdout } = await runOk('getent', ['passwd', 'postgres']);
	const [, , uid, gid] = stdout.trim().split(':');
	if (!uid) throw new Error('no `postgres` user: reinstall the postgresql package');
	return { uid: Number(uid), gid: Number(gid) };
}

/** A fresh folder for the services' data. */
export async function servicesDir() {
	const dir = await mkdtemp(path.join(os.tmpdir(), 'n8n-queue-e2e-'));
	await chmod(dir, 0o755); // the postgres user must reach its data folder inside
	return dir;
}
