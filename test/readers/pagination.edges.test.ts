/** Paging signals at their edges: empty headers, loose Link syntax, counts that are not numbers. */
import { forTests, nextPageOf, pagingStyleOf } from '../../nodes/shared/readers/pagination';

const { nextLinkOf } = forTests;

describe('nextLinkOf: RFC 8288 spellings', () => {
	it.each([
		['<http://x?page=1>; rel="prev",<http://x?page=3>; rel="next"', 'http://x?page=3'],
		['<http://x?page=2>;rel=next', 'http://x?page=2'],
		['<http://x?page=2>; rel = "next"', 'http://x?page=2'],
		['<http://x?page=2>; rel="prev next"', 'http://x?page=2'],
	])('%s → %s', (link, target) => expect(nextLinkOf(link)).toBe(target));

	it('a part that does not start with <…> is not a link', () => {
		expect(nextLinkOf('junk <http://x?page=2>; rel="next"')).toBeUndefined();
		expect(nextLinkOf(undefined)).toBeUndefined();
	});
});

describe('headers: empty values are no signal', () => {
	it.each([[null], [undefined]])('page count %p: no paging', (value) => {
		expect(pagingStyleOf({ 'X-Pagination-Page-Count': value }, [])).toBe('none');
	});

	it('the page count alone, or the total alone, is a header signal; a repeated header counts once', () => {
		expect(pagingStyleOf({ 'X-Pagination-Page-Count': '3' }, [])).toBe('headers');
		expect(pagingStyleOf({ 'x-pagination-total-count': ['40', '41'] }, [])).toBe('headers');
	});

	it('an empty page count falls back to _meta; a null current page to the page asked for', () => {
		expect(
			nextPageOf({ 'x-pagination-page-count': '' }, { _meta: { pageCount: 3, currentPage: 1 } }, 1),
		).toEqual({ page: '2' });
		expect(nextPageOf({}, { _meta: { pageCount: 3, currentPage: null } }, 2)).toEqual({
			page: '3',
		});
		expect(nextPageOf({}, { _meta: { pageCount: 3, currentPage: '', perPage: '' } }, 1)).toEqual({
			page: '2',
		});
	});

	it('the current page header wins over the page asked for', () => {
		expect(
			nextPageOf({ 'X-Pagination-Page-Count': '3', 'X-Pagination-Current-Page': '2' }, [], 1),
		).toEqual({ page: '3' });
	});
});

describe("other frameworks' names for the same signals", () => {
	const items = [{ id: 1 }];
	it.each([
		[
			"Laravel's meta",
			{ data: items, meta: { current_page: 1, last_page: 3, per_page: 20 } },
			{ page: '2', 'per-page': '20' },
		],
		["Laravel's links.next", { data: items, links: { next: 'https://x/a?page=2' } }, { page: '2' }],
		["Laravel's simple pager", { data: items, next_page_url: 'https://x/a?page=2' }, { page: '2' }],
		[
			'a pagination object inside data',
			{ success: true, data: { items, pagination: { currentPage: 2, totalPages: 4 } } },
			{ page: '3' },
		],
		[
			'meta with total_pages only, page from the request',
			{ meta: { total_pages: 5 } },
			{ page: '2' },
		],
		['meta with page_count', { meta: { page_count: 2 } }, { page: '2' }],
		['meta with lastPage', { meta: { lastPage: 2 } }, { page: '2' }],
		[
			'pagination with pageCount and perPage',
			{ pagination: { pageCount: 2, perPage: 5 } },
			{ page: '2', 'per-page': '5' },
		],
	])('%s: there is a next page', (_name, body, query) => {
		expect(nextPageOf({}, body, 1)).toEqual(query);
		expect(pagingStyleOf({}, body)).toBe('meta');
	});

	it.each([
		['the last page', { data: items, meta: { current_page: 3, last_page: 3 } }],
		['links.next null', { data: items, links: { next: null, prev: 'https://x/a?page=1' } }],
		['next_page_url null', { data: items, next_page_url: null }],
		['links.next empty', { data: items, links: { next: '' } }],
		['a meta that says nothing of pages', { data: items, meta: { generatedAt: 'now' } }],
	])('%s: no next page', (_name, body) => expect(nextPageOf({}, body, 1)).toBeUndefined());
});
