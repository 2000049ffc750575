/**
 * Arrows point down: node / trigger → router → actions and methods → api → transport → readers.
 * Shared code (api, transport, methods, readers, descriptions, constants) lives in nodes/shared/.
 * Read from the source's import lines, so a new file that reaches up or sideways fails here.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve, sep } from 'path';

const ROOT = resolve(__dirname, '..');
const SHARED = 'nodes/shared';
const ACTIONS = 'nodes/AlbatoSolutions/actions';

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return tsFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/**
 * Every relative module a file imports or re-exports, as a path from the repository root (no
 * extension).
 */
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
const within = (target: string, ...folders: string[]) =>
	folders.some((folder) => target === folder || target.startsWith(`${folder}/`));

/** Folders under actions/ holding an engine that several resources share, not one's operations. */
const ENGINES = [`${ACTIONS}/pausedUpdate/`, `${ACTIONS}/safeInstall/`];

/** An operation folder: nodes/AlbatoSolutions/actions/<resource>/… */
const isOperationFolder = (path: string) =>
	/^nodes\/AlbatoSolutions\/actions\/[^/]+\//.test(path) &&
	!ENGINES.some((engine) => path.startsWith(engine));

/** The resource folder a path is in (its subfolders included): actions/<resource>. */
const resourceOf = (path: string) => path.split('/').slice(0, 4).join('/');

function offenders(files: string[], bad: (target: string, file: string) => boolean): string[] {
	return files.flatMap((file) =>
		importsOf(file)
			.filter((target) => bad(target, file))
			.map((target) => `${rel(file)} → ${target}`),
	);
}

describe('layering', () => {
	it('reads the import lines it checks (a parser that finds nothing cannot pass)', () => {
		expect(importsOf(join(ROOT, SHARED, 'methods/loadOptions.ts'))).toContain(
			'nodes/shared/api/installation',
		);
		expect(importsOf(join(ROOT, SHARED, 'transport/client.ts'))).toContain(
			'nodes/shared/transport/settings',
		);
		expect(importsOf(join(ROOT, 'nodes/AlbatoSolutions/AlbatoSolutions.node.ts'))).toContain(
			`${ACTIONS}/router`,
		);
		expect(under(`${SHARED}/readers`).length).toBeGreaterThan(4);
	});

	it('the node file reaches its operations only through the router and the dispatch table', () => {
		const bad = (target: string) => isOperationFolder(target);
		expect(offenders([join(ROOT, 'nodes/AlbatoSolutions/AlbatoSolutions.node.ts')], bad)).toEqual(
			[],
		);
	});

	it('methods/ and the trigger never import an operation file, nor the action node', () => {
		const files = [...under(`${SHARED}/methods`), ...under('nodes/AlbatoSolutionsTrigger')];
		const bad = (target: string) => target.startsWith('nodes/AlbatoSolutions/');
		expect(offenders(files, bad)).toEqual([]);
	});

	it('an operation imports nothing from another resource’s folder', () => {
		const bad = (target: string, file: string) =>
			isOperationFolder(target) && resourceOf(target) !== resourceOf(rel(file));
		expect(
			offenders(
				under(ACTIONS).filter((file) => isOperationFolder(rel(file))),
				bad,
			),
		).toEqual([]);
	});

	it('nodes/shared/ imports nothing from either node', () => {
		const bad = (target: string) => !target.startsWith(`${SHARED}/`);
		expect(offenders(under(SHARED), bad)).toEqual([]);
	});

	it('methods/ builds on api/, transport/, readers/, descriptions/ and constants only', () => {
		const bad = (target: string) =>
			!within(
				target,
				`${SHARED}/methods`,
				`${SHARED}/api`,
				`${SHARED}/transport`,
				`${SHARED}/readers`,
				`${SHARED}/descriptions`,
				`${SHARED}/constants`,
			);
		expect(offenders(under(`${SHARED}/methods`), bad)).toEqual([]);
	});

	it('api/ builds on transport/ and readers/ only', () => {
		const bad = (target: string) =>
			!within(target, `${SHARED}/api`, `${SHARED}/transport`, `${SHARED}/readers`);
		expect(offenders(under(`${SHARED}/api`), bad)).toEqual([]);
	});

	it('transport/ imports only itself, readers/ and constants', () => {
		const bad = (target: string) =>
			!within(target, `${SHARED}/transport`, `${SHARED}/readers`, `${SHARED}/constants`);
		expect(offenders(under(`${SHARED}/transport`), bad)).toEqual([]);
	});

	it('readers/ and constants import nothing of ours outside readers/', () => {
		const bad = (target: string) => !within(target, `${SHARED}/readers`);
		expect(
			offenders([...under(`${SHARED}/readers`), join(ROOT, SHARED, 'constants.ts')], bad),
		).toEqual([]);
	});

	it('readers/ take only types from n8n-workflow: they return data, and callers throw n8n errors', () => {
		const valueImports = under(`${SHARED}/readers`)
			.filter((file) =>
				/^\s*import\s+(?!type\b)[^;]*?\bfrom\s+'n8n-workflow'/ms.test(readFileSync(file, 'utf8')),
			)
			.map(rel);
		expect(valueImports).toEqual([]);
	});

	it('descriptions never import the transport, api or methods', () => {
		const bad = (target: string) =>
			within(target, `${SHARED}/transport`, `${SHARED}/api`, `${SHARED}/methods`);
		expect(offenders(under(`${SHARED}/descriptions`), bad)).toEqual([]);
	});

	it('only api/ and transport/ send requests: no client.request( anywhere else', () => {
		const sends = all
			.filter((file) => !within(rel(file), `${SHARED}/api`, `${SHARED}/transport`))
			.filter((file) => /\bclient\.request\s*[<(]/.test(readFileSync(file, 'utf8')))
			.map(rel);
		expect(sends).toEqual([]);
	});

	it('forTests is for tests: no file of the package reads one', () => {
		const DECLARED = /^export const forTests = .*$/m;
		const sources = all.map((file) => [rel(file), readFileSync(file, 'utf8')] as const);
		expect(sources.filter(([, text]) => DECLARED.test(text)).length).toBeGreaterThan(0);
		const readers = sources.filter(([, text]) => /\bforTests\b/.test(text.replace(DECLARED, '')));
		expect(readers.map(([file]) => file)).toEqual([]);
	});
});
