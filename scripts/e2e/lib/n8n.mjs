// One n8n instance: a throw-away user folder with our package in it, its CLI, its server and
// its REST API (cookie login as the owner).

import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { freePort, run, startProcess, stop, tail, waitFor } from './proc.mjs';
import { baseEnv, installPackage } from './n8nSetup.mjs';

export const OWNER = {
	email: 'owner@example.com',
	password: 'E2e-Passw0rd!',
	firstName: 'E2E',
	lastName: 'Owner',
};

export class N8nInstance {
	/**
	 * @param install  the result of ensureN8n()
	 * @param packageRoot  our repository (package.json + dist/)
	 */
	static async create(install, packageRoot, { userFolder, env } = {}) {
		const folder = userFolder ?? (await mkdtemp(path.join(os.tmpdir(), 'n8n-e2e-')));
		const pkg = await installPackage(folder, packageRoot);
		const port = Number(process.env.N8N_E2E_PORT) || (await freePort());
		return new N8nInstance(install, folder, port, pkg, env);
	}

	/** `extraEnv`: settings every process and CLI call of this instance gets (e.g. queue mode). */
	constructor(install, userFolder, port, pkg, extraEnv = {}) {
		this.install = install;
		this.extraEnv = extraEnv;
		this.userFolder = userFolder;
		this.port = port;
		this.pkg = pkg;
		this.baseUrl = `http://127.0.0.1:${port}`;
		this.logFile = path.join(userFolder, 'n8n-server.log');
		this.server = undefined;
		this.cookie = undefined;
	}

	/** Each n8n process gets its own task-broker port, so a CLI run can overlap the server. */
	async env(extra = {}) {
		return {
			...baseEnv(this.userFolder, this.port, this.install.disabledModules),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			...this.extraEnv,
			...extra,
		};
	}

	/** `n8n <args…>` to completion. Throws on a non-zero exit unless `allowFailure`. */
	async cli(args, { timeoutMs = 180_000, allowFailure = false } = {}) {
		const result = await run(this.install.nodeBin, [this.install.n8nBin, ...args], {
			cwd: this.userFolder,
			env: await this.env(),
			timeoutMs,
		});
		if (result.code !== 0 && !allowFailure) {
			throw new Error(
				`n8n ${args.join(' ')} exited with ${result.code}\n${tail(result.stdout + result.stderr)}`,
			);
		}
		return result;
	}

	async writeJson(name, value) {
		const file = path.join(this.userFolder, name);
		await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
		return file;
	}

	async importCredentials(credentials) {
		const file = await this.writeJson('credentials.import.json', credentials);
		return this.cli(['import:credentials', `--input=${file}`]);
	}

	async importWorkflow(workflow) {
		return this.importWorkflows([workflow], `workflow-${workflow.id}.import.json`);
	}

	/**
	 * `import:workflow` of several workflows in one CLI call. On n8n 2.0 each gets `active` and a
	 * `versionId` when it has none: it refuses a workflow without them (NOT NULL columns); 1.x and
	 * later 2.x fill them in (a version with its history entry, which publishing needs).
	 */
	async importWorkflows(workflows, name = 'workflows.import.json') {
		const fillIn = this.importMakesNoVersion;
		const versioned = workflows.map((workflow) =>
			fillIn
				? {
						...workflow,
						active: workflow.active ?? false,
						versionId: workflow.versionId ?? randomUUID(),
					}
				: workflow,
		);
		const file = await this.writeJson(name, versioned);
		return this.cli(['import:workflow', `--input=${file}`]);
	}

	/**
	 * `n8n execute --id=… --rawOutput`: the run data is the JSON document the command prints at
	 * the end (log lines come before it). On failure n8n prints the same document (at info level)
	 * and exits non-zero; both are returned as `{ code, run, output }`.
	 */
	async execute(workflowId, { timeoutMs = 180_000 } = {}) {
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], {
			timeoutMs,
			allowFailure: true,
		});
		const output = result.stdout + result.stderr;
		return { code: result.code, run: parseRunJson(result.stdout), output, ms: result.ms };
	}

	/**
	 * Whether an `execute` result ran to success. n8n 2.0's CLI prints the run before it records
	 * its end (status "running", `stoppedAt` set); measured there with every node's data in place.
	 */
	succeeded({ code, run }) {
		if (code !== 0 || !run || run.data?.resultData?.error) return false;
		if (run.status === 'success') return true;
		const v20 = String(this.install.version ?? '').startsWith('2.0.');
		return v20 && run.status === 'running' && Boolean(run.stoppedAt);
	}

	/** Start `n8n start` and wait until its REST API answers. */
	async start({ timeoutMs = 180_000, echo = false } = {}) {
		const started = Date.now();
		this.server = startProcess(this.install.nodeBin, [this.install.n8nBin, 'start'], {
			cwd: this.userFolder,
			env: await this.env(),
			logFile: this.logFile,
			echo,
		});
		const exited = new Promise((resolve) => this.server.once('exit', (code) => resolve(code)));
		await Promise.race([
			waitFor('n8n to answer /rest/settings', () => this.ready(), { timeoutMs, intervalMs: 500 }),
			exited.then(async (code) => {
				throw new Error(
					`n8n start exited with ${code}\n${tail(await readFile(this.logFile, 'utf8'))}`,
				);
			}),
		]);
		return Date.now() - started;
	}

	async ready() {
		const response = await fetch(`${this.baseUrl}/rest/settings`);
		return response.ok;
	}

	async stop() {
		await stop(this.server);
		this.server = undefined;
		this.cookie = undefined;
	}

	/**
	 * Create the owner (first start only), or log in as the owner; keeps the auth cookie.
	 * Retried for a while: right after start-up n8n can answer before its auth is wired up.
	 */
	async loginOwner({ timeoutMs = 30_000 } = {}) {
		this.cookie = await waitFor('an n8n-auth cookie for the owner', () => this.tryLoginOwner(), {
			timeoutMs,
			intervalMs: 1000,
		});
		return this.cookie;
	}

	async tryLoginOwner() {
		const post = (urlPath, body) =>
			fetch(`${this.baseUrl}/rest${urlPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
		let response = await post('/owner/setup', OWNER);
		// Already set up (a kept user folder): log in instead.
		if (!response.ok)
			response = await post('/login', {
				emailOrLdapLoginId: OWNER.email,
				password: OWNER.password,
			});
		const cookie = response.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (!response.ok || !cookie)
			throw new Error(
				`owner setup/login: ${response.status} ${(await response.text()).slice(0, 300)}`,
			);
		return cookie.split(';')[0];
	}

	/** GET/POST on n8n's internal REST API as the owner; returns the `data` of the answer. */
	async rest(method, urlPath, body) {
		const response = await fetch(`${this.baseUrl}/rest${urlPath}`, {
			method,
			headers: { cookie: this.cookie, 'content-type': 'application/json', 'browser-id': 'n8n-e2e' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`${method} /rest${urlPath}: ${response.status} ${text.slice(0, 500)}`);
		const json = text ? JSON.parse(text) : {};
		return json.data ?? json;
	}

	/** n8n 1.x: activation is a flag of the workflow; 2.x publishes a version of it. */
	get isV1() {
		return String(this.install.version ?? '').startsWith('1.');
	}

	/** Activate a workflow with the CLI (before `start`): 2.x `publish:workflow`, 1.x `update:workflow`. */
	publishCli(workflowId) {
		return this.cli(
			this.isV1
				? ['update:workflow', `--id=${workflowId}`, '--active=true']
				: ['publish:workflow', `--id=${workflowId}`],
		);
	}

	/** n8n 2.0: `import:workflow` leaves no saved version (history entry) to publish. */
	get importMakesNoVersion() {
		return String(this.install.version ?? '').startsWith('2.0.');
	}

	/** Activate a workflow in the running n8n, as the editor's toggle does. */
	async activate(workflowId) {
		let { versionId, ...workflow } = await this.rest('GET', `/workflows/${workflowId}`);
		// Saved once, as the editor would, so that the version to publish exists (n8n 2.0 saves a
		// version only when the nodes or connections changed: the first node moves 20 px).
		const [first, ...others] = workflow.nodes ?? [];
		const moved = first && { ...first, position: [first.position[0] + 20, first.position[1]] };
		if (this.importMakesNoVersion)
			({ versionId } = await this.rest('PATCH', `/workflows/${workflowId}`, {
				name: workflow.name,
				nodes: [moved, ...others],
				connections: workflow.connections,
				settings: workflow.settings,
				versionId,
			}));
		const activated = this.isV1
			? await this.rest('PATCH', `/workflows/${workflowId}`, { active: true, versionId })
			: await this.rest('POST', `/workflows/${workflowId}/activate`, { versionId });
		if (!activated.active)
			throw new Error(`${workflowId} not active: ${JSON.stringify(activated).slice(0, 500)}`);
	}

	async deactivate(workflowId) {
		if (!this.isV1) return this.rest('POST', `/workflows/${workflowId}/deactivate`, {});
		const { versionId } = await this.rest('GET', `/workflows/${workflowId}`);
		return this.rest('PATCH', `/workflows/${workflowId}`, { active: false, versionId });
	}

	/** Executions of one workflow, newest first: `[{ id, status, mode, … }]`. */
	async executions(workflowId) {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const data = await this.rest('GET', `/executions?filter=${filter}&limit=50`);
		return data.results ?? data;
	}

	/** One execution with its run data decoded (the REST API sends it in `flatted` form). */
	async execution(id) {
		const data = await this.rest('GET', `/executions/${id}`);
		if (typeof data.data === 'string') {
			const { parse } = await import(
				path.join(this.install.appDir, 'node_modules', 'flatted', 'esm', 'index.js')
			);
			data.data = parse(data.data);
		}
		return data;
	}
}

/** The last top-level JSON object in a CLI's output (n8n prints log lines before it). */
export function parseRunJson(stdout) {
	const start = stdout.search(/^\{$/m);
	if (start === -1) return undefined;
	const end = stdout.lastIndexOf('\n}');
	try {
		return JSON.parse(stdout.slice(start, end + 2));
	} catch {
		return undefined;
	}
}
