/**
 * Number parameters are checked by the parameter kit (`numberInRange`), so that every one names
 * itself, its range and its item the same way: no other file under actions/ tests a number with
 * `Number.isInteger` or `Number.isFinite`.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative, resolve, sep } from 'path';

const ROOT = resolve(__dirname, '../../..');
const ACTIONS = join(ROOT, 'nodes/AlbatoSolutions/actions');

/** The kit. */
const KIT = ['params.ts', 'objectParameters.ts'];

/** Files that test numbers of the service's data, not parameters, and why. */
const SERVICE_DATA: Record<string, string> = {
	'run/runMemory.ts': 'orders remembered runs by their ids',
	'installation/ensure/locateOrInstall.ts': 'reads the ids of matching installations',
	'safeInstall/containDuplicates.ts': 'compares installation ids',
	'installation/ensure/valueTypes.ts':
		'reads a field value written as text as the number it spells',
};

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return tsFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

const NUMBER_CHECK = /\bNumber\.is(?:Integer|Finite)\b/;
const checking = tsFiles(ACTIONS)
	.filter((file) => NUMBER_CHECK.test(readFileSync(file, 'utf8')))
	.map((file) => relative(ACTIONS, file).split(sep).join('/'));

describe('the parameter kit checks numbers', () => {
	it('no file under actions/ outside the kit tests a number itself', () => {
		const allowed = [...KIT, ...Object.keys(SERVICE_DATA)];
		expect(checking.filter((file) => !allowed.includes(file))).toEqual([]);
	});

	it('every exception is still one (remove it from the list when it no longer is)', () => {
		const listed = Object.keys(SERVICE_DATA);
		expect(listed.filter((file) => !checking.includes(file))).toEqual([]);
	});
});
