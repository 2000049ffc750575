/** readWholeList with an exchange written here: what it asks of every page, what it returns. */
import type { IDataObject } from 'n8n-workflow';

import type { CallOptions } from '../../nodes/shared/transport/callOptions';
import type { AlbatoApiError } from '../../nodes/shared/transport/errors';
import {
	type Exchange,
	MAX_PAGES,
	type ListOptions,
	readWholeList,
} from '../../nodes/shared/transport/pages';
import { node } from '../support/node';

/**
 * Serves the pages given (1-based), each saying how many pages there are; records what was asked.
 */
const serving = (pages: unknown[], pageCount = pages.length) => {
	const asked: CallOptions[] = [];
	const exchange: Exchange = async (_method, _path, options) => {
		asked.push(options);
		const page = Number(options.query?.page ?? 1);
		const headers: IDataObject = {
			'x-pagination-page-count': String(pageCount),
			'x-pagination-current-page': String(page),
		};
		const data = pages[Math.min(page, pages.length) - 1];
		return { headers, body: { data }, data };
	};
	return { exchange, asked };
};

const ids = (list: unknown) => (list as IDataObject[]).map((item) => item.id);

/** What readWholeList asks each page to hold, for these options. */
const expectOf = async (options: ListOptions) => {
	const { exchange, asked } = serving([[]]);
	await readWholeList(exchange, node, '/x', options);
	expect(asked).toHaveLength(1);
	return asked[0].expect!;
};

describe('readWholeList: what every page must hold', () => {
	it('names the list in the failure', async () =>
		expect((await expectOf({ what: 'installations' })).what).toBe('list of installations'));

	it('`{}` holds a list only when the options say an empty object is one', async () => {
		const strict = await expectOf({ what: 'runs' });
		const lenient = await expectOf({ what: 'runs', emptyObjectIsList: true });
		expect([strict.holds({}), lenient.holds({})]).toEqual([false, true]);
		expect((await expectOf({ what: 'runs', emptyObjectIsList: false })).holds({})).toBe(false);
	});

	it('with empty objects allowed, nothing else that holds no list passes', async () => {
		const lenient = await expectOf({ what: 'runs', emptyObjectIsList: true });
		expect([{ a: 1 }, '', null, undefined, 0].map((data) => lenient.holds(data))).toEqual([
			false,
			false,
			false,
			false,
			false,
		]);
		expect([[], { data: [] }, { 7: { name: 'x' } }].map((data) => lenient.holds(data))).toEqual([
			true,
			true,
			true,
		]);
	});
});

describe('readWholeList: pages', () => {
	it('without a paging signal: the answer as it came, not a list rebuilt from it', async () => {
		const data = { items: [{ id: 1 }], note: 'kept' };
		const exchange: Exchange = async () => ({ headers: {}, body: { data }, data });
		expect(await readWholeList(exchange, node, '/x', { what: 'x' })).toBe(data);
	});

	it('an item met again on a later page is left out, also when it first came on page 2', async () => {
		const { exchange, asked } = serving([
			[{ id: 1 }, { id: 2 }],
			[{ id: 3 }, { id: 4 }],
			[{ id: 3 }, { id: 4 }, { id: 5 }],
		]);
		expect(ids(await readWholeList(exchange, node, '/x', { what: 'x' }))).toEqual([1, 2, 3, 4, 5]);
		expect(asked.map((options) => options.query)).toEqual([
			undefined,
			{ page: '2' },
			{ page: '3' },
		]);
	});

	it(`more than ${MAX_PAGES} pages: fails, saying nothing was changed`, async () => {
		const pages = Array.from({ length: MAX_PAGES + 1 }, (_, i) => [{ id: i + 1 }]);
		const { exchange, asked } = serving(pages);
		const error = (await readWholeList(exchange, node, '/x', { what: 'x', itemIndex: 3 }).catch(
			(e: unknown) => e,
		)) as AlbatoApiError;
		expect(error.message).toBe(`The list has more than ${MAX_PAGES} pages`);
		expect(error.description).toBe(
			'GET /x: The node stops there rather than loop; nothing was changed.',
		);
		expect([error.outcome, error.call, asked.length]).toEqual([
			'failed',
			{ method: 'GET', path: '/x' },
			MAX_PAGES,
		]);
	});
});
