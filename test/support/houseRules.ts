/**
 * The house rules' measures, for the limits tests: file lines, and per function its lines, branch
 * count and parameters; the import graph and its circles. The branch count is 1 + each if, ?:,
 * loop, case, catch, &&, || and ??; closures count on their own. Reads TypeScript and JavaScript.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, extname, join, relative, resolve, sep } from 'path';
import * as ts from 'typescript';

export const ROOT = resolve(__dirname, '../..');
export const MAX_FILE_LINES = 300;
export const MAX_FUNCTION_LINES = 60;
export const MAX_BRANCHES = 15;
export const MAX_PARAMETERS = 5;

const CODE = new Set(['.ts', '.mjs', '.js']);
const SKIP = new Set(['node_modules', 'dist', 'fixtures']);

function codeFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return SKIP.has(name) ? [] : codeFiles(path);
		return CODE.has(extname(path)) && !path.endsWith('.d.ts') ? [path] : [];
	});
}

export const rel = (file: string) => relative(ROOT, file).split(sep).join('/');

/** The parsed code files under these folders of the repository, by repository path. */
export function sourcesOf(folders: string[]): Map<string, ts.SourceFile> {
	const files = folders.flatMap((folder) => codeFiles(join(ROOT, folder)));
	return new Map(
		files.map((file) => [
			rel(file),
			ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true),
		]),
	);
}

export const fileLines = (source: ts.SourceFile) => source.getLineStarts().length;

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

export interface FunctionFigures {
	where: string;
	/** The function's name, or `(anonymous)`. */
	name: string;
	lines: number;
	branches: number;
	parameters: number;
}

export function functionsOf(file: string, source: ts.SourceFile): FunctionFigures[] {
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
				name: nameOf(node),
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

/** Every relative module a file imports (type imports too), as a repository path. */
function importsOf(
	file: string,
	source: ts.SourceFile,
	sources: Map<string, ts.SourceFile>,
): string[] {
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
			const candidates = [target, `${target}.ts`, `${target}/index.ts`];
			return candidates.find((candidate) => sources.has(candidate)) ?? target;
		})
		.filter((target) => sources.has(target));
}

/** One circle of imports, if there is any: depth-first search over the import graph. */
export function findCircle(sources: Map<string, ts.SourceFile>): string[] | undefined {
	const graph = new Map(
		[...sources].map(([file, source]) => [file, importsOf(file, source, sources)]),
	);
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

/** A function's name: its declaration's, or the variable or property it is assigned to. */
function nameOf(node: ts.Node): string {
	const named = node as ts.Node & { name?: ts.Node };
	if (named.name && ts.isIdentifier(named.name)) return named.name.text;
	const parent = node.parent;
	if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
		if (ts.isIdentifier(parent.name)) return parent.name.text;
	return '(anonymous)';
}
