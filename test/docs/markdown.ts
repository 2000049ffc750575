/**
 * Just enough of GitHub's Markdown (GFM) to check the repository's docs: pipe tables as GFM reads
 * them, headings' anchors and relative links. No Markdown library is installed, and these rules are
 * short; each follows the GFM spec (https://github.github.com/gfm/#tables-extension-).
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative } from 'path';

import { githubAnchor } from '../../scripts/readme-operations';

export const ROOT = join(__dirname, '..', '..');

/** The Markdown files whose tables and links are checked, relative to the repository root. */
export function markdownFiles(): string[] {
	const walk = (dir: string): string[] =>
		readdirSync(join(ROOT, dir)).flatMap((name) => {
			const path = join(dir, name);
			if (statSync(join(ROOT, path)).isDirectory()) return walk(path);
			return name.endsWith('.md') ? [path] : [];
		});
	const folders = ['docs', 'contributing'].filter((dir) => exists(dir));
	const single = ['README.md', 'CONTRIBUTING.md', 'emulator/README.md', 'scripts/e2e/README.md'];
	return [...single.filter(exists), ...folders.flatMap(walk)].map((path) =>
		relative(ROOT, join(ROOT, path)),
	);
}

function exists(path: string): boolean {
	try {
		statSync(join(ROOT, path));
		return true;
	} catch {
		return false;
	}
}

export const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

const PUNCTUATION = /[!-/:-@[-`{-~]/;

/**
 * A row's cells as GFM splits them: at every `|` not escaped by a backslash (a backslash escapes
 * any ASCII punctuation, so `\\|` still splits), inside code spans too; one leading and one
 * trailing pipe are optional; cells are trimmed.
 */
export function cellsOf(line: string): string[] {
	const text = line.trim().replace(/^\|/, '');
	const cells: string[] = [];
	let current = '';
	let endsWithPipe = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		endsWithPipe = false;
		if (char === '\\' && PUNCTUATION.test(text[i + 1] ?? '')) {
			current += char + text[++i];
		} else if (char === '|') {
			cells.push(current.trim());
			current = '';
			endsWithPipe = true;
		} else {
			current += char;
		}
	}
	if (!endsWithPipe && (current.trim() !== '' || cells.length === 0)) cells.push(current.trim());
	return text.trim() === '' ? [] : cells;
}

/** A delimiter row: at least one pipe, and every cell hyphens with optional alignment colons. */
export function isDelimiterRow(line: string): boolean {
	const cells = cellsOf(line);
	return line.includes('|') && cells.length > 0 && cells.every((cell) => /^:?-+:?$/.test(cell));
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** What ends a table besides a blank line: the start of another block. */
const OTHER_BLOCK = /^ {0,3}(#{1,6}(\s|$)|>|`{3,}|~{3,}|<!--)/;

/** Which lines are outside fenced code blocks (fences included count as code). */
function proseLines(lines: string[]): boolean[] {
	let fence: string | undefined;
	return lines.map((line) => {
		const opening = FENCE.exec(line)?.[1];
		const closing = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)?.[1];
		if (fence === undefined && opening) fence = opening;
		else if (fence !== undefined && closing?.[0] === fence[0] && closing.length >= fence.length)
			fence = undefined;
		else return fence === undefined;
		return false;
	});
}

export interface TableProblem {
	line: number;
	message: string;
}

/**
 * Where a table GitHub would not render as meant: a header row whose cell count differs from the
 * delimiter row's (GFM then shows no table at all), or a data row with more cells than the header
 * (GFM drops the extra cells). Lines are 1-based. Fenced code is skipped.
 */
export function tableProblems(markdown: string): TableProblem[] {
	const lines = markdown.split(/\r?\n/);
	const problems: TableProblem[] = [];
	const prose = proseLines(lines);
	for (let i = 0; i < lines.length; i++) {
		if (!prose[i] || i === 0 || !isDelimiterRow(lines[i]) || lines[i - 1].trim() === '') continue;
		const header = cellsOf(lines[i - 1]).length;
		const delimiter = cellsOf(lines[i]).length;
		if (header !== delimiter) {
			problems.push({
				line: i,
				message: `header row has ${header} cells, delimiter row ${delimiter}: GitHub shows no table`,
			});
			continue;
		}
		while (i + 1 < lines.length && lines[i + 1].trim() !== '' && !OTHER_BLOCK.test(lines[i + 1])) {
			i++;
			const cells = cellsOf(lines[i]).length;
			if (cells > header)
				problems.push({
					line: i + 1,
					message: `row has ${cells} cells, the header ${header}: GitHub drops the last ${cells - header}`,
				});
		}
	}
	return problems;
}

/** The anchors of a document's headings, numbered as GitHub numbers repeats (`-1`, `-2`). */
export function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	const lines = markdown.split(/\r?\n/);
	const prose = proseLines(lines);
	for (const [index, line] of lines.entries()) {
		if (!prose[index]) continue;
		const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
		if (heading === undefined) continue;
		const text = heading
			.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
			.replace(/[`*]/g, '')
			.replace(/(^|\s)_(\S.*?\S|\S)_(?=\s|$)/g, '$1$2');
		const base = githubAnchor(text);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

export interface Link {
	line: number;
	target: string;
}

/** Inline links and images outside code: `[text](target)`, the target without a title. */
export function linksOf(markdown: string): Link[] {
	const links: Link[] = [];
	const lines = markdown.split(/\r?\n/);
	const prose = proseLines(lines);
	lines.forEach((line, index) => {
		if (!prose[index]) return;
		const text = line.replace(/`[^`]*`/g, '');
		for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
			links.push({ line: index + 1, target: match[1] });
	});
	return links;
}
