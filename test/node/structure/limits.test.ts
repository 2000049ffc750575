/**
 * The house rules of the published code, so a file or function that outgrows them fails here
 * instead of in a later review: no file over 300 lines, no function over 60 lines (the router's
 * over 40), no branch count over 15, no more than 5 parameters, no import circle (type imports
 * included). The measures: test/support/houseRules.ts.
 */
import {
	fileLines,
	findCircle,
	functionsOf,
	MAX_BRANCHES,
	MAX_FILE_LINES,
	MAX_FUNCTION_LINES,
	MAX_PARAMETERS,
	sourcesOf,
} from '../../support/houseRules';

const MAX_ROUTER_FUNCTION_LINES = 40;
const sources = sourcesOf(['nodes']);
const functions = [...sources].flatMap(([file, source]) => functionsOf(file, source));

describe('the house rules of nodes/', () => {
	it('measures something (the walk finds the node, its functions and their branches)', () => {
		expect(sources.has('nodes/AlbatoSolutions/actions/router.ts')).toBe(true);
		expect(functions.length).toBeGreaterThan(500);
		expect(Math.max(...functions.map((fn) => fn.branches))).toBeGreaterThan(5);
	});

	it(`no file over ${MAX_FILE_LINES} lines`, () => {
		const long = [...sources]
			.map(([file, source]) => `${file}: ${fileLines(source)}`)
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
		expect(findCircle(sources)).toBeUndefined();
	});
});
