/**
 * Shape readers at their edges: what is and is not a list, id spellings, status words, option keys.
 */
import {
	fieldsOf,
	holdsList,
	idOf,
	installationOf,
	listOrMap,
	positiveIdOf,
	solutionIdOf,
	statusOf,
	withNumericIds,
} from '../../nodes/shared/readers/shapes';
import { forTests, settingStepsOf } from '../../nodes/shared/readers/settingSteps';

const { optionsOf } = forTests;

describe('holdsList / listOrMap', () => {
	it.each([
		[[], true],
		[[1, 'x'], true],
		[{ items: [] }, true],
		[{ list: { '7': { title: 'x' } } }, true],
		[{}, false],
		[null, false],
		['text', false],
		[{ items: {} }, false],
		[{ a: { x: 1 }, b: 2 }, false],
		[{ installations: [] }, false],
	])('%j holds a list: %p', (data, holds) => expect(holdsList(data)).toBe(holds));

	it('extra wrapper keys count only when given', () => {
		expect(holdsList({ installations: [] }, ['installations'])).toBe(true);
	});

	it('keeps only objects; a wrapped map gets its keys as ids', () => {
		expect(listOrMap([1, null, { id: 1 }])).toEqual([{ id: 1 }]);
		expect(listOrMap({ list: { '7': { title: 'x' } } })).toEqual([{ title: 'x', id: '7' }]);
		expect(listOrMap({})).toEqual([]);
	});

	it('a wrapper key holding nothing (null) is passed over', () => {
		expect(listOrMap({ items: null, data: [{ id: 1 }] })).toEqual([{ id: 1 }]);
	});

	it('`data` without a success flag is an envelope: the list inside, never a record "data"', () => {
		const page = { data: { items: [{ id: 5001 }, { id: 5002 }], _meta: { totalCount: 2 } } };
		expect(listOrMap(page)).toEqual([{ id: 5001 }, { id: 5002 }]);
		expect(listOrMap({ data: { '5001': { title: 'Acme' } } })).toEqual([
			{ title: 'Acme', id: '5001' },
		]);
		expect(listOrMap({ success: 'ok', data: { items: [{ id: 1 }] } })).toEqual([{ id: 1 }]);
		expect(holdsList({ data: { items: [] } })).toBe(true);
		expect(listOrMap({ data: {}, meta: { current_page: 1, last_page: 1 } })).toEqual([]);
		// A `data` with nothing list-like inside is still read as before: one record of a map.
		expect(listOrMap({ data: { id: 5, title: 'x' } })).toEqual([{ id: 5, title: 'x' }]);
	});

	it('a wrapper whose values are not all records is itself one record of a map', () => {
		expect(listOrMap({ items: { a: { x: 1 }, b: 2 } })).toEqual([
			{ a: { x: 1 }, b: 2, id: 'items' },
		]);
	});
});

describe('ids', () => {
	it.each([
		['1e3', '1e3'],
		['0x10', '0x10'],
		['12abc', '12abc'],
	])('%p is text, not a number', (raw, id) => expect(idOf(raw)).toBe(id));

	it('1 is the smallest id a user may give', () => {
		expect(positiveIdOf(1)).toBe(1);
		expect(positiveIdOf('1')).toBe(1);
	});

	it('solutionIdOf: solutionId first, appId otherwise', () => {
		expect(solutionIdOf({ solutionId: '5', appId: 7 })).toBe(5);
		expect(solutionIdOf({ appId: '7' })).toBe(7);
	});

	it('withNumericIds: `id` by default; what is no id is left as sent', () => {
		expect(withNumericIds({ id: '5', other: '6' })).toStrictEqual({ id: 5, other: '6' });
		expect(withNumericIds({ id: '', x: 1 })).toStrictEqual({ id: '', x: 1 });
		expect(withNumericIds({ x: 1 })).toStrictEqual({ x: 1 });
	});
});

describe('installations', () => {
	it('statusOf: empty and null are no status; words are trimmed and any case', () => {
		expect(statusOf({ status: '' })).toBeUndefined();
		expect(statusOf({ status: null })).toBeUndefined();
		expect(statusOf({ status: ' Active ' })).toBe(1);
		expect(statusOf({ status: 'PAUSED' })).toBe(0);
	});

	it('installationOf: id, appId and solutionId as numbers; no status invented', () => {
		expect(installationOf({ id: '1', appId: '2', solutionId: '3' })).toStrictEqual({
			id: 1,
			appId: 2,
			solutionId: 3,
		});
		expect(installationOf({ id: 4, installation: { id: 6 } })).toStrictEqual({
			id: 4,
			installation: { id: 6 },
		});
		expect(installationOf('x')).toStrictEqual({ result: 'x' });
	});
});

describe('optionsOf', () => {
	it('an {id: label} map: a missing label shows the key; a record its title, value or key', () => {
		expect(optionsOf({ a: null, b: 'B', c: undefined })).toEqual([
			{ value: 'a', title: 'a' },
			{ value: 'b', title: 'B' },
			{ value: 'c', title: 'c' },
		]);
		expect(optionsOf({ k: { value: 'v' }, j: {} })).toEqual([
			{ value: 'k', title: 'v', nested: undefined },
			{ value: 'j', title: 'j', nested: undefined },
		]);
	});

	it('a list: empty entries skipped; `value` beside a title wins over an id', () => {
		expect(optionsOf([null, 'x', undefined])).toEqual([{ value: 'x', title: 'x' }]);
		expect(optionsOf([{ value: 'v' }])).toEqual([{ value: 'v', title: 'v', nested: undefined }]);
		expect(optionsOf([{ key: 'k', title: 'K' }])).toEqual([
			{ value: 'k', title: 'K', nested: undefined },
		]);
		expect(optionsOf([{ value: 'v', title: 'T', id: 'i' }])).toEqual([
			{ value: 'v', title: 'T', nested: undefined },
		]);
	});
});

describe('settingStepsOf', () => {
	it('a step without id or title: empty id; a title wins over the id', () => {
		expect(settingStepsOf([{ values: [] }])).toEqual([
			{ id: '', title: '', values: [], nested: [] },
		]);
		expect(settingStepsOf([{ id: 's', title: 'T' }])[0].title).toBe('T');
	});

	it('nested steps under values: none taken while nothing is chosen', () => {
		const steps = [
			{
				id: 's',
				values: [
					{ value: 'a', title: 'A', nested: [{ id: 'under-a', title: 'Under A' }] },
					{ value: 'b', title: 'B' },
				],
			},
		];
		expect(settingStepsOf(steps)[0].nested).toEqual([]);
		expect(settingStepsOf(steps, { s: 'a' })[0].nested.map((step) => step.id)).toEqual(['under-a']);
		expect(settingStepsOf(steps, { s: 'b' })[0].nested).toEqual([]);
	});
});

describe('fieldsOf', () => {
	it('a list: only records; a field without a code has an empty name', () => {
		expect(fieldsOf([null, { name: 'a', value: 1 }, { value: 2 }])).toEqual([
			{ name: 'a', label: 'a', value: 1 },
			{ name: '', label: '', value: 2 },
		]);
	});

	it('a map: records with `value` give their label, others are the value itself', () => {
		expect(fieldsOf({ a: { value: 1, label: 'A' }, b: { x: 1 }, c: { value: 3 } })).toEqual([
			{ name: 'a', label: 'A', value: 1 },
			{ name: 'b', label: 'b', value: { x: 1 } },
			{ name: 'c', label: 'c', value: 3 },
		]);
	});
});
