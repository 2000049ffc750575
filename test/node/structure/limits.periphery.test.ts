/**
 * The house rules reach the periphery: emulator/ and scripts/ are held to the same limits as the
 * node, with no exception: no file over 300 lines, no function over 60 lines, no branch count over
 * 15, no more than 5 parameters, no import circle (type imports included). The measures:
 * test/support/houseRules.ts.
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

const sources = sourcesOf(['emulator', 'scripts']);
const functions = [...sources].flatMap(([file, source]) => functionsOf(file, source));

describe('the house rules of emulator/ and scripts/', () => {
	it('measures something (the walk finds the emulator, the scripts and their branches)', () => {
		expect(sources.has('emulator/core.ts')).toBe(true);
		expect([...sources.keys()].some((file) => file.endsWith('.mjs'))).toBe(true);
		expect(functions.length).toBeGreaterThan(1000);
		expect(Math.max(...functions.map((fn) => fn.branches))).toBeGreaterThan(5);
	});

	it(`no file over ${MAX_FILE_LINES} lines`, () => {
		const long = [...sources]
			.filter(([, source]) => fileLines(source) > MAX_FILE_LINES)
			.map(([file, source]) => `${file}: ${fileLines(source)}`);
		expect(long).toEqual([]);
	});

	it(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
		const long = functions.filter((fn) => fn.lines > MAX_FUNCTION_LINES);
		expect(long.map((fn) => `${fn.where} ${fn.name}: ${fn.lines} lines`)).toEqual([]);
	});

	it(`no function with a branch count over ${MAX_BRANCHES} or over ${MAX_PARAMETERS} parameters`, () => {
		const branched = functions.filter((fn) => fn.branches > MAX_BRANCHES);
		const wide = functions.filter((fn) => fn.parameters > MAX_PARAMETERS);
		expect(branched.map((fn) => `${fn.where} ${fn.name}: ${fn.branches} branches`)).toEqual([]);
		expect(wide.map((fn) => `${fn.where} ${fn.name}: ${fn.parameters} parameters`)).toEqual([]);
	});

	it('no import circle, type imports included', () => {
		expect(findCircle(sources)).toBeUndefined();
	});
});
