// `npm run scan` (part of `npm test`): n8n's own community-package scanner, lint stage, on what n8n
// verifies. The scanner's CLI only takes a package name from the registry; its exported
// `analyzePackage` is the same analysis on a local folder. Three checks, each must hold:
//   1. canary: a planted violation is reported (so a scanner that lints nothing cannot pass);
//   2. source: package.json, nodes/ and credentials/, with the patterns n8n uses for the source;
//   3. tarball: what `npm pack` ships (built dist/ must exist), with the patterns n8n uses for it,
//      and the tarball holds only dist/, README.md, LICENSE.md, CHANGELOG.md and package.json.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARBALL_PATTERNS = ['**/*.js', 'package.json']; // as the scanner's analyzePackageByName
const SHIPPED = [/^dist\//, /^README\.md$/, /^LICENSE\.md$/, /^CHANGELOG\.md$/, /^package\.json$/];

const work = mkdtempSync(path.join(os.tmpdir(), 'albato-scan-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

let failed = 0;
function report(name, ok, details = '') {
	console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
	if (!ok) {
		failed++;
		if (details) console.log(details);
	}
}

/** analyzePackage passes a folder with no matching files; for us that is a failure. */
async function scan(dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	if (result.passed && result.message === 'No files found to analyze')
		return { passed: false, message: result.message };
	return result;
}

async function canary() {
	const dir = path.join(work, 'canary');
	mkdirSync(path.join(dir, 'nodes', 'Canary'), { recursive: true });
	cpSync(path.join(repoRoot, 'package.json'), path.join(dir, 'package.json'));
	// A Limit parameter with the wrong description: one of the 4 errors this package once had.
	writeFileSync(
		path.join(dir, 'nodes', 'Canary', 'Canary.node.ts'),
		"export const limit = { displayName: 'Limit', name: 'limit', type: 'number', default: 50, description: 'Max number of items' };\n",
	);
	const result = await analyzePackage(dir, SOURCE_FILE_PATTERNS);
	const caught =
		!result.passed && /node-param-description-wrong-for-limit/.test(result.details ?? '');
	report(
		'canary: the scanner reports a planted violation',
		caught,
		result.details ?? result.message,
	);
}

async function source() {
	const result = await scan(repoRoot, SOURCE_FILE_PATTERNS);
	report(
		'source: package.json, nodes/, credentials/',
		result.passed,
		result.details ?? result.message,
	);
}

async function tarball() {
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
		cwd: repoRoot,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const [{ filename, files }] = JSON.parse(out);
	const extra = files.map((f) => f.path).filter((p) => !SHIPPED.some((re) => re.test(p)));
	report(
		`tarball: ships only dist/, README, LICENSE, CHANGELOG, package.json (${files.length} files)`,
		extra.length === 0,
		extra.join('\n'),
	);
	const missing = ['LICENSE.md', 'CHANGELOG.md', 'README.md', 'package.json'].filter(
		(f) => !files.some((e) => e.path === f),
	);
	report(
		'tarball: has README, LICENSE, CHANGELOG and package.json',
		missing.length === 0,
		`missing: ${missing.join(', ')}`,
	);
	const hasDist = files.some((f) => f.path.startsWith('dist/nodes/'));
	report('tarball: has the built nodes (run `npm run build` first)', hasDist);

	const dir = path.join(work, 'package');
	mkdirSync(dir);
	execFileSync('tar', [
		'-xzf',
		path.join(work, path.basename(filename)),
		'-C',
		dir,
		'--strip-components=1',
	]);
	const result = await scan(dir, TARBALL_PATTERNS);
	report(
		`tarball: ${readdirSync(dir).join(', ')}`,
		result.passed,
		result.details ?? result.message,
	);
}

await canary();
await source();
await tarball();
console.log(failed ? `scan: ${failed} check(s) failed` : 'scan: all checks passed');
process.exitCode = failed ? 1 : 0;
