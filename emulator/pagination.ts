/**
 * Lists paged as Yii2's REST layer pages them (variant `pagination`): yii\data\Pagination with
 * `validatePage` (a page past the end answers the last page), `per-page` between 1 and 50, and
 * yii\rest\Serializer's headers or `collectionEnvelope: 'items'` body (or, variant `meta`, as
 * Laravel's collections say it: `{data, meta: {current_page, last_page, per_page}}`). The page size is PAGE_SIZE
 * (Yii's default is 20) so that the fixtures span several pages.
 */
import qs from 'qs';

import { isLazyList } from './runStreamList';
import type { Variants } from './types';

export const PAGE_SIZE = 1;
/** Yii2's own default page size: lists of run streams (runStreamList.ts) are paged at it. */
export const YII_PAGE_SIZE = 20;
const MAX_PER_PAGE = 50;

const whole = (value: unknown): number | undefined =>
	typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** One page of `list` for this query, as data and headers under the current variants. */
export function paginate(
	list: { length: number; slice(from: number, to: number): unknown[] },
	query: Record<string, unknown>,
	variants: Variants,
	url: string,
	pageSize = PAGE_SIZE,
): { data: unknown; headers: Record<string, string> } {
	const perPage = clamp(whole(query['per-page']) ?? pageSize, 1, MAX_PER_PAGE);
	const pageCount = Math.max(1, Math.ceil(list.length / perPage));
	const page = clamp(whole(query[variants.pageParam]) ?? 1, 1, pageCount);
	const items = list.slice((page - 1) * perPage, page * perPage);
	const href = (n: number) =>
		`${url}?${qs.stringify({ ...query, [variants.pageParam]: n, 'per-page': perPage })}`;
	const links: Record<string, string> = { self: href(page), first: href(1), last: href(pageCount) };
	if (page > 1) links.prev = href(page - 1);
	if (page < pageCount) links.next = href(page + 1);

	if (variants.pagination === 'body') {
		const _links = Object.fromEntries(
			Object.entries(links).map(([rel, target]) => [rel, { href: target }]),
		);
		return {
			data: {
				items,
				_links,
				_meta: { totalCount: list.length, pageCount, currentPage: page, perPage },
			},
			headers: {},
		};
	}
	if (variants.pagination === 'meta') {
		// Laravel's resource collections: the list under `data`, the page numbers in `meta`.
		return {
			data: {
				data: items,
				meta: { current_page: page, last_page: pageCount, per_page: perPage, total: list.length },
			},
			headers: {},
		};
	}
	if (variants.pagination === 'link') {
		return {
			data: items,
			headers: {
				Link: Object.entries(links)
					.map(([rel, target]) => `<${target}>; rel=${rel}`)
					.join(', '),
			},
		};
	}
	return {
		data: items,
		headers: {
			'X-Pagination-Total-Count': String(list.length),
			'X-Pagination-Page-Count': String(pageCount),
			'X-Pagination-Current-Page': String(page),
			'X-Pagination-Per-Page': String(perPage),
		},
	};
}

/**
 * One page of a list answer, or undefined when the list is answered whole: a lazy list (a run
 * stream, runStreamList.ts) is always paged, at Yii2's default page size and with its headers unless
 * a paging variant says otherwise; an array only under a paging variant.
 */
export function pageOfList(
	data: unknown,
	query: Record<string, unknown>,
	variants: Variants,
	url: string,
): ReturnType<typeof paginate> | undefined {
	if (isLazyList(data)) {
		const style =
			variants.pagination === 'none' ? { ...variants, pagination: 'headers' } : variants;
		return paginate(data, query, style as Variants, url, YII_PAGE_SIZE);
	}
	if (variants.pagination !== 'none' && Array.isArray(data))
		return paginate(data, query, variants, url);
	return undefined;
}
