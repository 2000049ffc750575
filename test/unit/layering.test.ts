/**
 * Arrows point down (ARCHITECTURE.md): node / trigger → actions and methods → api → transport → helpers.
 * Read from the source's import lines, so a new file that reaches up or sideways fails here.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve, sep } from 'path';

const ROOT = resolve(__dirname, '../..');
const NODE = join(ROOT, 'nodes/AlbatoSolutions');

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return tsFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Every relative module a file imports or re-exports, as a path from the repository root (no extension). */
function importsOf(file: string): string[] {
	const source = readFileSync(file, 'utf8');
	const specs = [...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms)].map(
		(match) => match[1],
	);
	return specs
		.filter((spec) => spec.startsWith('.'))
		.map((spec) =>
			relative(ROOT, resolve(dirname(file), spec))
				.split(sep)
				.join('/'),
		);
}

const rel = (file: string) => relative(ROOT, file).split(sep).join('/');
const all = [...tsFiles(join(ROOT, 'nodes')), ...tsFiles(join(ROOT, 'credentials'))];
const under = (folder: string) => all.filter((file) => rel(file).startsWith(`${folder}/`));

/** An operation folder: nodes/AlbatoSolutions/actions/<resource>/… (the shared descriptions beside them are not one). */
const isOperationFolder = (path: string) => /^nodes\/AlbatoSolutions\/actions\/[^/]+\//.test(path);

function offenders(files: string[], bad: (target: string, file: string) => boolean): string[] {
	return files.flatMap((file) =>
		importsOf(file)
			.filter((target) => bad(target, file))
			.map((target) => `${rel(file)} → ${target}`),
	);
}

describe('layering', () => {
	it('reads the import lines it checks (a parser that finds nothing cannot pass)', () => {
		expect(importsOf(join(NODE, 'methods/loadOptions.ts'))).toContain(
			'nodes/AlbatoSolutions/api/installation',
		);
		expect(importsOf(join(NODE, 'transport/index.ts'))).toContain(
			'nodes/AlbatoSolutions/helpers/transportOptions',
		);
		expect(under('nodes/AlbatoSolutions/helpers').length).toBeGreaterThan(5);
	});

	it('methods/ and the trigger never import from an operation folder', () => {
		const files = [
			...under('nodes/AlbatoSolutions/methods'),
			...under('nodes/AlbatoSolutionsTrigger'),
		];
		expect(offenders(files, isOperationFolder)).toEqual([]);
	});

	it('an operation imports nothing from another resource’s folder', () => {
		const bad = (target: string, file: string) =>
			isOperationFolder(target) && dirname(target) !== dirname(rel(file));
		expect(
			offenders(
				under('nodes/AlbatoSolutions/actions').filter((file) => isOperationFolder(rel(file))),
				bad,
			),
		).toEqual([]);
	});

	it('helpers/ imports nothing of ours outside helpers/', () => {
		const bad = (target: string) => !target.startsWith('nodes/AlbatoSolutions/helpers/');
		expect(offenders(under('nodes/AlbatoSolutions/helpers'), bad)).toEqual([]);
	});

	it('api/ builds on transport/ and helpers/ only', () => {
		const bad = (target: string) =>
			!/^nodes\/AlbatoSolutions\/(transport|helpers)(\/|$)/.test(target);
		expect(offenders(under('nodes/AlbatoSolutions/api'), bad)).toEqual([]);
	});

	it('transport/ imports only itself and helpers/', () => {
		const bad = (target: string) => !/^nodes\/AlbatoSolutions\/(transport|helpers)\//.test(target);
		expect(offenders(under('nodes/AlbatoSolutions/transport'), bad)).toEqual([]);
	});

	it('only api/ and transport/ send requests: no client.request( anywhere else', () => {
		const sends = all
			.filter((file) => !/^nodes\/AlbatoSolutions\/(api|transport)\//.test(rel(file)))
			.filter((file) => /\bclient\.request\s*[<(]/.test(readFileSync(file, 'utf8')))
			.map(rel);
		expect(sends).toEqual([]);
	});
});
