/**
 * The house rules of the published code, so a file or function that outgrows them fails here
 * instead of in a later review: no file over 300 lines, no function over 60 lines (the router's
 * over 40), no branch count over 15, no more than 5 parameters, no import circle (type imports
 * included). The branch count is 1 + each if, ?:, loop, case, catch, &&, || and ??; closures count
 * on their own.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve, sep } from 'path';
import * as ts from 'typescript';

const ROOT = resolve(__dirname, '../../..');
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 60;
const MAX_ROUTER_FUNCTION_LINES = 40;
const MAX_BRANCHES = 15;
const MAX_PARAMETERS = 5;

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return tsFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

const rel = (file: string) => relative(ROOT, file).split(sep).join('/');
const files = tsFiles(join(ROOT, 'nodes'));
const sources = new Map(
	files.map((file) => [
		rel(file),
		ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true),
	]),
);

const BRANCHES = new Set([
	ts.SyntaxKind.IfStatement,
	ts.SyntaxKind.ConditionalExpression,
	ts.SyntaxKind.ForStatement,
	ts.SyntaxKind.ForOfStatement,
	ts.SyntaxKind.ForInStatement,
	ts.SyntaxKind.WhileStatement,
	ts.SyntaxKind.DoStatement,
	ts.SyntaxKind.CaseClause,
	ts.SyntaxKind.CatchClause,
]);
const LOGICAL = new Set([
	ts.SyntaxKind.AmpersandAmpersandToken,
	ts.SyntaxKind.BarBarToken,
	ts.SyntaxKind.QuestionQuestionToken,
]);

function branchCount(fn: ts.Node): number {
	let count = 1;
	const visit = (node: ts.Node) => {
		if (node !== fn && ts.isFunctionLike(node)) return;
		if (BRANCHES.has(node.kind)) count++;
		if (ts.isBinaryExpression(node) && LOGICAL.has(node.operatorToken.kind)) count++;
		ts.forEachChild(node, visit);
	};
	ts.forEachChild(fn, visit);
	return count;
}

interface FunctionFigures {
	where: string;
	lines: number;
	branches: number;
	parameters: number;
}

function functionsOf(file: string, source: ts.SourceFile): FunctionFigures[] {
	const found: FunctionFigures[] = [];
	const visit = (node: ts.Node) => {
		if (
			ts.isFunctionDeclaration(node) ||
			ts.isMethodDeclaration(node) ||
			ts.isArrowFunction(node) ||
			ts.isFunctionExpression(node)
		) {
			const line = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
			found.push({
				where: `${file}:${line(node.getStart()) + 1}`,
				lines: line(node.getEnd()) - line(node.getStart()) + 1,
				branches: branchCount(node),
				parameters: node.parameters.filter((p) => p.name.getText() !== 'this').length,
			});
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

const functions = [...sources].flatMap(([file, source]) => functionsOf(file, source));

/** Every relative module a file imports (type imports too), as a repository path. */
function importsOf(file: string, source: ts.SourceFile): string[] {
	return source.statements
		.filter(
			(node): node is ts.ImportDeclaration | ts.ExportDeclaration =>
				(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
				node.moduleSpecifier !== undefined &&
				ts.isStringLiteral(node.moduleSpecifier) &&
				node.moduleSpecifier.text.startsWith('.'),
		)
		.map((node) => {
			const spec = (node.moduleSpecifier as ts.StringLiteral).text;
			const target = rel(resolve(ROOT, dirname(file), spec));
			return sources.has(`${target}.ts`) ? `${target}.ts` : `${target}/index.ts`;
		})
		.filter((target) => sources.has(target));
}

/** One circle of imports, if there is any: depth-first search over the import graph. */
function findCircle(): string[] | undefined {
	const graph = new Map([...sources].map(([file, source]) => [file, importsOf(file, source)]));
	const state = new Map<string, 'open' | 'done'>();
	const path: string[] = [];
	const visit = (file: string): string[] | undefined => {
		if (state.get(file) === 'done') return undefined;
		if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
		state.set(file, 'open');
		path.push(file);
		for (const next of graph.get(file) ?? []) {
			const circle = visit(next);
			if (circle) return circle;
		}
		path.pop();
		state.set(file, 'done');
		return undefined;
	};
	for (const file of graph.keys()) {
		const circle = visit(file);
		if (circle) return circle;
	}
	return undefined;
}

describe('the house rules of nodes/', () => {
	it('measures something (the walk finds the node, its functions and their branches)', () => {
		expect(sources.has('nodes/AlbatoSolutions/actions/router.ts')).toBe(true);
		expect(functions.length).toBeGreaterThan(500);
		expect(Math.max(...functions.map((fn) => fn.branches))).toBeGreaterThan(5);
	});

	it(`no file over ${MAX_FILE_LINES} lines`, () => {
		const long = [...sources]
			.map(([file, source]) => `${file}: ${source.getLineStarts().length}`)
			.filter((entry) => Number(entry.split(': ')[1]) > MAX_FILE_LINES);
		expect(long).toEqual([]);
	});

	it(`no function over ${MAX_FUNCTION_LINES} lines (the router's over ${MAX_ROUTER_FUNCTION_LINES})`, () => {
		const long = functions.filter(
			(fn) =>
				fn.lines >
				(fn.where.startsWith('nodes/AlbatoSolutions/actions/router.ts:')
					? MAX_ROUTER_FUNCTION_LINES
					: MAX_FUNCTION_LINES),
		);
		expect(long.map((fn) => `${fn.where}: ${fn.lines} lines`)).toEqual([]);
	});

	it(`no function with a branch count over ${MAX_BRANCHES} or over ${MAX_PARAMETERS} parameters`, () => {
		const branched = functions.filter((fn) => fn.branches > MAX_BRANCHES);
		const wide = functions.filter((fn) => fn.parameters > MAX_PARAMETERS);
		expect(branched.map((fn) => `${fn.where}: ${fn.branches} branches`)).toEqual([]);
		expect(wide.map((fn) => `${fn.where}: ${fn.parameters} parameters`)).toEqual([]);
	});

	it('no import circle, type imports included', () => {
		expect(findCircle()).toBeUndefined();
	});
});
