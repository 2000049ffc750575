// An n8n user folder made ready: our package installed into it, and the environment every n8n process
// of an instance gets (n8n.mjs).
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Copy our built package where n8n 2.x looks for community packages:
 * `<N8N_USER_FOLDER>/.n8n/nodes/node_modules/<name>` (package.json + dist/ only, like a
 * published tarball). n8n resolves `n8n-workflow` for it from its own install.
 */
export async function installPackage(userFolder, packageRoot) {
	const pkg = JSON.parse(await readFile(path.join(packageRoot, 'package.json'), 'utf8'));
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', pkg.name);
	await mkdir(target, { recursive: true });
	await cp(path.join(packageRoot, 'package.json'), path.join(target, 'package.json'));
	await cp(path.join(packageRoot, 'dist'), path.join(target, 'dist'), { recursive: true });
	// What `npm install <pkg>` would have left in the nodes folder.
	await writeFile(
		path.join(nodesDir, 'package.json'),
		`${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [pkg.name]: pkg.version } }, null, 2)}\n`,
	);
	return pkg;
}

/** Settings that keep n8n on loopback and quiet; see scripts/e2e/README.md for why each is there. */
export function baseEnv(userFolder, port, disabledModules) {
	const env = { ...process.env };
	// Our npm/ts-node variables must not leak into n8n's own npm calls.
	for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
	return {
		...env,
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}`,
		N8N_SECURE_COOKIE: 'false',
		DB_TYPE: 'sqlite',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		// Per version (lib/install.mjs): 2.41's MCP registry module fetches a catalogue from n8n's
		// servers every start; older versions refuse an unknown module name.
		...(disabledModules ? { N8N_DISABLED_MODULES: disabledModules } : {}),
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LOG_LEVEL: 'info',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		// Internal task runners stay on (n8n 2.x always has them); only their port is ours.
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		NODE_ENV: 'production',
	};
}
