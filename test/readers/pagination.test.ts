/**
 * Yii2's paging signals, read by a pure helper (the transport's use of it is tested over HTTP in
 * test/transport/pages.test.ts).
 */
import { forTests, nextPageOf, pagingStyleOf } from '../../nodes/shared/readers/pagination';

const { nextLinkOf, queryOf } = forTests;

describe('nextLinkOf', () => {
	it('finds rel=next, quoted or not, among other relations', () => {
		expect(
			nextLinkOf(
				'<https://a/x?page=1>; rel=self, <https://a/x?page=2>; rel=next, <https://a/x?page=9>; rel=last',
			),
		).toBe('https://a/x?page=2');
		expect(nextLinkOf('<https://a/x?page=2>; rel="next"')).toBe('https://a/x?page=2');
		expect(nextLinkOf('<https://a/x?page=2>; rel="prev next"')).toBe('https://a/x?page=2');
	});
	it('nothing without rel=next', () => {
		expect(
			nextLinkOf('<https://a/x?page=1>; rel=self, <https://a/x?page=1>; rel=last'),
		).toBeUndefined();
		expect(nextLinkOf('<https://a/x?page=2>; rel=nextish')).toBeUndefined();
		expect(nextLinkOf(undefined)).toBeUndefined();
	});
});

describe('nextPageOf', () => {
	it('a next link gives its own query (host and path never used)', () => {
		expect(
			nextPageOf(
				{ link: '<https://evil.example/y?p=2&per-page=20&filter%5BbundleId%5D=7>; rel=next' },
				[],
				1,
			),
		).toEqual({ p: '2', 'per-page': '20', 'filter[bundleId]': '7' });
		expect(
			nextPageOf(
				{},
				{ success: true, data: { items: [], _links: { next: { href: '/x?page=3' } } } },
				2,
			),
		).toEqual({ page: '3' });
		expect(nextPageOf({}, { items: [], _links: { next: '/x?page=3' } }, 2)).toEqual({ page: '3' });
	});
	it('counts alone give page and per-page; headers in any case', () => {
		expect(
			nextPageOf(
				{
					'X-Pagination-Page-Count': '3',
					'X-Pagination-Current-Page': '1',
					'X-Pagination-Per-Page': '20',
				},
				[],
				1,
			),
		).toEqual({ page: '2', 'per-page': '20' });
		expect(nextPageOf({ 'x-pagination-page-count': '3' }, [], 2)).toEqual({ page: '3' });
		expect(
			nextPageOf(
				{},
				{ success: true, data: [], _meta: { pageCount: 2, currentPage: 1, perPage: 5 } },
				1,
			),
		).toEqual({ page: '2', 'per-page': '5' });
	});
	it('nothing on the last page or without a signal', () => {
		expect(
			nextPageOf({ 'x-pagination-page-count': '3', 'x-pagination-current-page': '3' }, [], 3),
		).toBeUndefined();
		expect(
			nextPageOf({}, { items: [], _meta: { pageCount: 1, currentPage: 1 } }, 1),
		).toBeUndefined();
		expect(
			nextPageOf({ 'content-type': 'application/json' }, { success: true, data: [{ id: 1 }] }, 1),
		).toBeUndefined();
	});
});

it('pagingStyleOf and queryOf', () => {
	expect(pagingStyleOf({ 'X-Pagination-Total-Count': '4' }, [])).toBe('headers');
	expect(pagingStyleOf({ Link: '<x>; rel=self' }, [])).toBe('link');
	expect(pagingStyleOf({}, { success: true, data: { items: [], _meta: {} } })).toBe('body');
	expect(pagingStyleOf({}, { success: true, data: [] })).toBe('none');
	expect(queryOf('https://a/b?x=1&y=%2B#frag')).toEqual({ x: '1', y: '+' });
	expect(queryOf('https://a/b')).toEqual({});
});
