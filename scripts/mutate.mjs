// `npm run mutate`: Stryker over the decision logic (stryker.config.mjs), group after group
// (`GROUPS` there); `node scripts/mutate.mjs readers,install` runs the groups named; further
// arguments go to Stryker, e.g. `npm run mutate:transport -- --mutate nodes/shared/transport/limiter.ts`.
//
// StrykerJS 10 needs Node >= 22; the project's Node is 20. On an older Node this runs Stryker on
// Node 24 from the npm registry package `node` (the one `npm run e2e:n8n` uses): `STRYKER_NODE`
// names a binary to use instead; otherwise the e2e cache's Node, or one installed once into
// ${XDG_CACHE_HOME:-~/.cache}/n8n-nodes-albato-solutions/node-<version>.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { cacheDir, NODE_VERSION } from './e2e/lib/install.mjs';
import { runOk } from './e2e/lib/proc.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stryker = path.join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');

async function nodeForStryker() {
	if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
	if (process.env.STRYKER_NODE) return process.env.STRYKER_NODE;
	const e2eNode = path.join(cacheDir(), 'runtime', 'node_modules', 'node', 'bin', 'node');
	if (existsSync(e2eNode)) return e2eNode;
	const dir = path.join(path.dirname(cacheDir()), `node-${NODE_VERSION}`);
	const bin = path.join(dir, 'node_modules', 'node', 'bin', 'node');
	if (!existsSync(bin)) {
		console.log(`Stryker needs Node >= 22: installing node@${NODE_VERSION} into ${dir} (once)…`);
		await mkdir(dir, { recursive: true });
		// The package's install script places the platform's binary: scripts on, for this folder only.
		await runOk('npm', [
			'install',
			'--no-audit',
			'--no-fund',
			'--ignore-scripts=false',
			'--prefix',
			dir,
			`node@${NODE_VERSION}`,
		]);
	}
	return bin;
}

const DEFAULT_GROUPS = [
	'readers',
	'transport',
	'params',
	'install',
	'poll',
	'update',
	'wire',
	'watch',
	'window',
];

const args = process.argv.slice(2);
const groups = args[0] && !args[0].startsWith('-') ? args.shift().split(',') : DEFAULT_GROUPS;
const node = await nodeForStryker();

function runGroup(group) {
	return new Promise((resolve) => {
		console.log(`\n== mutation group "${group}" ==`);
		const started = Date.now();
		const child = spawn(node, [stryker, 'run', ...args], {
			cwd: root,
			stdio: 'inherit',
			// Stryker's workers and jest's start from PATH's `node` in places: the same Node for all.
			env: {
				...process.env,
				MUTATE_GROUP: group,
				PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}`,
			},
		});
		child.on('exit', (code, signal) => {
			console.log(`== "${group}" took ${Math.round((Date.now() - started) / 1000)} s ==`);
			resolve(code ?? (signal ? 1 : 0));
		});
	});
}

let failed = 0;
for (const group of groups) if ((await runGroup(group)) !== 0) failed++;
process.exit(failed === 0 ? 0 : 1);
