/**
 * Pages of a list answer. The spec says nothing of paging ("page sizes: not shown") and Albato's
 * docs show lists whole, but the service is built on Yii2, whose REST lists page by default. So an
 * answer is read for Yii's signals: the `X-Pagination-*` headers, a `Link: <…>; rel=next` header,
 * or `_links` / `_meta` in the body (beside or inside `data`). The same in the names other
 * frameworks use is read too: `meta` / `pagination` with `current_page`, `last_page`, `per_page`
 * (Laravel's), `links.next`, `next_page_url`. Pure: unit-tested; the emulator's `pagination`
 * variants prove the transport uses it.
 */
import type { IDataObject } from 'n8n-workflow';

import { isObject } from './shapes';

/** A header whatever its case; the first value when repeated. */
function header(headers: IDataObject, name: string): string | undefined {
	for (const [key, value] of Object.entries(headers ?? {})) {
		if (key.toLowerCase() !== name) continue;
		const text = Array.isArray(value) ? value[0] : value;
		return text === undefined || text === null ? undefined : String(text);
	}
	return undefined;
}

const whole = (value: unknown): number | undefined => {
	const n = Number(value);
	return value !== undefined && value !== null && value !== '' && Number.isInteger(n)
		? n
		: undefined;
};

/** The query of an address (`page=2&per-page=20`), decoded; its host and path are never used. */
function queryOf(href: string): Record<string, string> {
	const q = href.indexOf('?');
	if (q === -1) return {};
	const out: Record<string, string> = {};
	for (const [key, value] of new URLSearchParams(href.slice(q + 1).split('#')[0])) out[key] = value;
	return out;
}

/** The target of `rel=next` in a Link header (RFC 8288), if any. */
function nextLinkOf(link: string | undefined): string | undefined {
	for (const part of (link ?? '').split(/,(?=\s*<)/)) {
		const match = /^\s*<([^>]*)>(.*)$/.exec(part);
		const rel = match && /;\s*rel\s*=\s*("([^"]*)"|[^;\s]*)/i.exec(match[2]);
		if (rel && (rel[2] ?? rel[1]).toLowerCase().split(/\s+/).includes('next')) return match[1];
	}
	return undefined;
}

/** Where a body may say which page it is and how many there are. */
const META_KEYS = ['_meta', 'meta', 'pagination'];
/** Where a body may link its next page. */
const LINKS_KEYS = ['_links', 'links'];

/** The first of these keys that holds a whole number, in any holder. */
const wholeIn = (metas: IDataObject[], keys: string[]) => {
	for (const meta of metas)
		for (const key of keys) {
			const n = whole(meta[key]);
			if (n !== undefined) return n;
		}
	return undefined;
};

/** The body, and its `data` when that is an object: where paging signals may sit. */
const holdersOf = (body: unknown) =>
	[body, isObject(body) ? body.data : undefined].filter(isObject);

const metasOf = (holders: IDataObject[]) =>
	holders.flatMap((holder) => META_KEYS.map((key) => holder[key]).filter(isObject));

/** Whether an answer carries any paging signal (the probe names which). */
export function pagingStyleOf(
	headers: IDataObject,
	body: unknown,
): 'headers' | 'link' | 'body' | 'meta' | 'none' {
	if (
		header(headers, 'x-pagination-page-count') !== undefined ||
		header(headers, 'x-pagination-total-count') !== undefined
	)
		return 'headers';
	if (header(headers, 'link') !== undefined) return 'link';
	const holders = holdersOf(body);
	if (holders.some((holder) => isObject(holder._meta) || isObject(holder._links))) return 'body';
	return holders.some(
		(holder) =>
			isObject(holder.meta) ||
			isObject(holder.pagination) ||
			isObject(holder.links) ||
			typeof holder.next_page_url === 'string',
	)
		? 'meta'
		: 'none';
}

/**
 * The query parameters asking for the page after `page` (1-based, the one this answer is), or
 * undefined when the answer signals no further page. A next link gives its own parameters (so a
 * renamed page parameter works); counts alone give `page` (and `per-page` when known), as Yii reads
 * them.
 */
export function nextPageOf(
	headers: IDataObject,
	body: unknown,
	page: number,
): Record<string, string> | undefined {
	const holders = holdersOf(body);
	const nexts = holders.flatMap((holder) => [
		...LINKS_KEYS.map((key) => holder[key])
			.filter(isObject)
			.map((links) => links.next),
		holder.next_page_url,
	]);
	const href =
		nextLinkOf(header(headers, 'link')) ??
		nexts
			.map((next) =>
				typeof next === 'string' && next !== ''
					? next
					: isObject(next) && typeof next.href === 'string'
						? next.href
						: undefined,
			)
			.find((next) => next !== undefined);
	if (href !== undefined) return queryOf(href);

	const metas = metasOf(holders);
	const pageCount =
		whole(header(headers, 'x-pagination-page-count')) ??
		wholeIn(metas, [
			'pageCount',
			'page_count',
			'last_page',
			'lastPage',
			'totalPages',
			'total_pages',
		]);
	const current =
		whole(header(headers, 'x-pagination-current-page')) ??
		wholeIn(metas, ['currentPage', 'current_page']) ??
		page;
	const perPage =
		whole(header(headers, 'x-pagination-per-page')) ?? wholeIn(metas, ['perPage', 'per_page']);
	if (pageCount === undefined || current >= pageCount) return undefined;
	return {
		page: String(current + 1),
		...(perPage !== undefined ? { 'per-page': String(perPage) } : {}),
	};
}

/** Only for tests: what they check or reset directly. The node never reads this. */
export const forTests = { nextLinkOf, queryOf };
