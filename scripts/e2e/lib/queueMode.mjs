// The n8n processes of queue mode, shared by `e2e:queue` and `bench:fleet`: the settings every
// process gets (Redis, Postgres, one encryption key), and one more process (`worker`, `webhook`).

import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { startProcess, tail, waitFor } from './proc.mjs';

export function queueEnv(redis, postgres) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		// Every process must decrypt the same credentials.
		N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
		// Production webhooks go to the webhook processor only.
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		// Keep every execution in Postgres, to check them.
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
	};
}

/** Start one more n8n process (`worker` or `webhook`) and wait for its ready line. */
export async function startRole(n8n, name, args, readyPattern, extraEnv = {}) {
	const logFile = path.join(n8n.userFolder, `n8n-${name}.log`);
	let ready = false;
	let exitCode;
	const child = startProcess(n8n.install.nodeBin, [n8n.install.n8nBin, ...args], {
		cwd: n8n.userFolder,
		env: await n8n.env(extraEnv),
		logFile,
		onLine: (line) => {
			if (readyPattern.test(line)) ready = true;
		},
	});
	child.once('exit', (code) => (exitCode = code));
	await waitFor(
		`n8n ${name} to be ready`,
		async () => {
			if (exitCode !== undefined)
				throw new Error(
					`n8n ${name} exited with ${exitCode}\n${tail(await readFile(logFile, 'utf8'))}`,
				);
			return ready;
		},
		{ timeoutMs: 180_000, intervalMs: 300 },
	);
	return { name, child, logFile };
}
