/**
 * No name, heading or message cites an issue number: code and docs say what a thing is or why,
 * not which ticket brought it (the tracker is not shipped, and its numbers mean nothing to a
 * partner). The CHANGELOG may.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';

const ROOT = join(__dirname, '..', '..');
const FOLDERS = ['nodes', 'emulator', 'scripts', 'docs', 'contributing', 'credentials', 'examples'];
const TEXT = /\.(ts|mjs|js|md|json)$/;

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : filesUnder(path);
		return TEXT.test(name) ? [path] : [];
	});
}

describe('issue numbers', () => {
	it('are cited nowhere in the code, the emulator, the scripts or the docs', () => {
		const files = FOLDERS.flatMap((folder) => filesUnder(join(ROOT, folder)));
		expect(files.length).toBeGreaterThan(100);
		const cited = files.flatMap((file) =>
			readFileSync(file, 'utf8')
				.split('\n')
				.map((line, index) => ({ line, at: `${relative(ROOT, file)}:${index + 1}` }))
				.filter(({ line }) => /\b[Ii]ssue[ -#]?\d/.test(line))
				.map(({ at }) => at),
		);
		expect(cited).toEqual([]);
	});
});
