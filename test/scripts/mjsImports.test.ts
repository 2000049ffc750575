/**
 * The scripts' ES modules (.mjs) are not type-checked: a named import of a sibling module that no
 * longer exports that name fails only when the script runs (a bench, an e2e run). This reads every
 * `import { … } from './….mjs'` under scripts/ and checks that the module exports each name.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, resolve } from 'path';

const SCRIPTS = join(__dirname, '..', '..', 'scripts');

function modules(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const file = join(dir, name);
		if (statSync(file).isDirectory()) return modules(file);
		return file.endsWith('.mjs') ? [file] : [];
	});
}

const exported = new Map<string, Set<string>>();

/** The names a module exports (declarations, export lists, and `export *` of a sibling). */
function exportsOf(file: string): Set<string> {
	const known = exported.get(file);
	if (known) return known;
	const names = new Set<string>();
	exported.set(file, names);
	const source = readFileSync(file, 'utf8');
	for (const [, name] of source.matchAll(
		/export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([\w$]+)/g,
	))
		names.add(name);
	for (const [, list] of source.matchAll(/export\s*\{([^}]*)\}/g))
		for (const part of list.split(','))
			names.add(
				part
					.trim()
					.split(/\s+as\s+/)
					.pop()!,
			);
	for (const [, from] of source.matchAll(/export\s*\*\s*from\s*['"](\.[^'"]+\.mjs)['"]/g))
		for (const name of exportsOf(resolve(dirname(file), from))) names.add(name);
	names.delete('');
	return names;
}

it('every named import of a sibling .mjs module names one of its exports', () => {
	const files = modules(SCRIPTS);
	expect(files.length).toBeGreaterThan(20);
	const missing: string[] = [];
	for (const file of files)
		for (const [, list, from] of readFileSync(file, 'utf8').matchAll(
			/import\s*\{([^}]*)\}\s*from\s*['"](\.[^'"]+\.mjs)['"]/g,
		)) {
			const names = exportsOf(resolve(dirname(file), from));
			for (const part of list.split(',')) {
				const name = part.trim().split(/\s+as\s+/)[0];
				if (name && !names.has(name)) missing.push(`${file}: ${name} from ${from}`);
			}
		}
	expect(missing).toEqual([]);
});
