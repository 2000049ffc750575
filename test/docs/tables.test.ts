/**
 * Every pipe table in the docs renders on GitHub and npm: a table whose header and delimiter rows
 * differ in cells shows as a paragraph of pipes, and cells beyond the header's are dropped.
 */
import { cellsOf, isDelimiterRow, markdownFiles, read, tableProblems } from './markdown';

describe('the GFM table rules the check follows', () => {
	test.each([
		['| a | b |', ['a', 'b']],
		['a | b', ['a', 'b']],
		['| a | b', ['a', 'b']],
		['a | b |', ['a', 'b']],
		['| a |', ['a']],
		['| a \\| b |', ['a \\| b']],
		['| `x \\| y` | z |', ['`x \\| y`', 'z']],
		['| `x | y` | z |', ['`x', 'y`', 'z']],
		['| a \\\\| b |', ['a \\\\', 'b']],
		['| a | | c |', ['a', '', 'c']],
		['| a \\; b | c |', ['a \\; b', 'c']],
	])('%s splits into %j', (row, cells) => {
		expect(cellsOf(row)).toEqual(cells);
	});

	test.each(['| --- | :-: |', '---|---', '|-|', '| :--- |'])('%s is a delimiter row', (row) => {
		expect(isDelimiterRow(row)).toBe(true);
	});

	test.each(['---', '| -- a |', '| a | b |', '| |'])('%s is not a delimiter row', (row) => {
		expect(isDelimiterRow(row)).toBe(false);
	});

	test('a table whose rows fit has no problem', () => {
		expect(tableProblems('| a | b |\n| - | - |\n| 1 | 2 |\n| 3 |\n')).toEqual([]);
	});

	test('a header row with fewer cells than the delimiter row is no table', () => {
		const markdown = 'text\n\n| a | b | c |\n| - | - | - | - |\n| 1 | 2 | 3 |\n';
		expect(tableProblems(markdown)).toEqual([
			{ line: 3, message: 'header row has 3 cells, delimiter row 4: GitHub shows no table' },
		]);
	});

	test('a `\\;` where `\\|` was meant splits a cell and the row outgrows its header', () => {
		const markdown = '| a | b |\n| - | - |\n| 1 | x \\; y | z |\n| 2 | x \\| y |\n';
		expect(tableProblems(markdown)).toEqual([
			{ line: 3, message: 'row has 3 cells, the header 2: GitHub drops the last 1' },
		]);
	});

	test('tables in fenced code are not tables', () => {
		expect(tableProblems('```\n| a |\n| - | - |\n```\n')).toEqual([]);
		expect(tableProblems('~~~md\n| a |\n| - | - |\n~~~\n| a |\n| - |\n')).toEqual([]);
	});

	test('a table ends at a blank line or another block', () => {
		expect(tableProblems('| a |\n| - |\n\n| 1 | 2 |\n')).toEqual([]);
		expect(tableProblems('| a |\n| - |\n## x | y\n')).toEqual([]);
	});
});

describe('the tables in the docs', () => {
	const files = markdownFiles();

	test('the checked files include the README and the guides', () => {
		expect(files).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md']));
		expect(files.filter((file) => file.startsWith('docs/')).length).toBeGreaterThan(5);
	});

	test.each(files)('%s: every table renders', (file) => {
		const problems = tableProblems(read(file)).map(({ line, message }) => `${file}:${line}: ${message}`);
		expect(problems).toEqual([]);
	});
});
