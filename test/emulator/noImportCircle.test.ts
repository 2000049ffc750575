/**
 * The emulator's modules import one another without a circle: every relative import (including
 * `import type` and `export … from`) read from the source files, followed from every module.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';

const ROOT = resolve(__dirname, '../../emulator');

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return tsFiles(path);
		return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
	});
}

/** The relative modules a source imports or re-exports, as absolute file paths. */
function relativeImports(file: string, source: string): string[] {
	const found: string[] = [];
	const pattern = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g;
	const bare = /(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g;
	for (const re of [pattern, bare]) {
		for (const match of source.matchAll(re)) {
			const target = resolve(dirname(file), match[1]);
			const candidates = [`${target}.ts`, join(target, 'index.ts'), target];
			const hit = candidates.find((candidate) => {
				try {
					return statSync(candidate).isFile();
				} catch {
					return false;
				}
			});
			found.push(hit ?? `${target}.ts`);
		}
	}
	return found;
}

/**
 * Every circle in an import graph, each as the list of files around it (first file repeated last).
 */
function circles(graph: Map<string, string[]>): string[][] {
	const found: string[][] = [];
	const state = new Map<string, 'open' | 'done'>();
	const stack: string[] = [];
	const visit = (node: string) => {
		state.set(node, 'open');
		stack.push(node);
		for (const next of graph.get(node) ?? []) {
			if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
			else if (!state.has(next)) visit(next);
		}
		stack.pop();
		state.set(node, 'done');
	};
	for (const node of graph.keys()) if (!state.has(node)) visit(node);
	return found;
}

describe('emulator imports', () => {
	const files = tsFiles(ROOT);
	const graph = new Map(
		files.map((file) => [file, relativeImports(file, readFileSync(file, 'utf8'))]),
	);

	it('reads the import lines of every module (core imports something, index imports core and control)', () => {
		expect(files.length).toBeGreaterThanOrEqual(10);
		const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
		expect(edges).toBeGreaterThanOrEqual(files.length);
		const index = graph.get(join(ROOT, 'index.ts'))!.map((file) => relative(ROOT, file));
		expect(index).toEqual(expect.arrayContaining(['core.ts', 'control.ts']));
	});

	it('the circle finder finds a circle when there is one, type-only imports included', () => {
		const a = join(ROOT, 'a.ts');
		const b = join(ROOT, 'b.ts');
		const c = join(ROOT, 'c.ts');
		const imports = (file: string, text: string) => relativeImports(file, text);
		const graphWithCircle = new Map([
			[a, imports(a, "import { x } from './b';")],
			[b, imports(b, "import type { Y } from './c';\nexport * from './a';")],
			[c, imports(c, '')],
		]);
		expect(graphWithCircle.get(b)).toEqual([c, a]);
		expect(circles(graphWithCircle)).toEqual([[a, b, a]]);
		expect(
			circles(
				new Map([
					[a, [b]],
					[b, [c]],
					[c, []],
				]),
			),
		).toEqual([]);
	});

	it('has no import circle', () => {
		const named = circles(graph).map((circle) =>
			circle.map((file) => relative(ROOT, file)).join(' → '),
		);
		expect(named).toEqual([]);
	});

	it('control routes are dispatched where requests enter (index), not from the core', () => {
		const core = graph.get(join(ROOT, 'core.ts'))!.map((file) => relative(ROOT, file));
		expect(core.length).toBeGreaterThan(0);
		expect(core).not.toContain('control.ts');
		expect(readFileSync(join(ROOT, 'core.ts'), 'utf8')).not.toMatch(/__emulator/);
	});
});
