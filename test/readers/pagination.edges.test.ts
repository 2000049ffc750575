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
