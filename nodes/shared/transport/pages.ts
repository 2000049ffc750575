/** Reading a list whole, page after page, as the service's paging signals allow. */
import type { IDataObject, INode } from 'n8n-workflow';

import { nextPageOf } from '../readers/pagination';
import { holdsList, listOrMap } from '../readers/shapes';
import type { CallOptions } from './callOptions';
import { type ApiMethod, readError } from './errors';
import { itemKey } from './wire';

/**
 * Pages read for one list at most (Yii's default page size is 20): beyond it the read fails, never
 * ends short.
 */
export const MAX_PAGES = 200;

export type ListOptions = CallOptions & {
	what: string;
	listKeys?: string[];
	/**
	 * `{}` is an empty map-shaped list (lists often empty, e.g. runs); else it fails as unreadable.
	 */
	emptyObjectIsList?: boolean;
	/**
	 * Asked after each page with the items read so far and that page's items: true ends the read
	 * there (the caller knows the rest of the list is not needed). Without it the list is read whole.
	 */
	enough?: (items: IDataObject[], page: IDataObject[]) => boolean;
};

const isEmptyObject = (data: unknown) =>
	typeof data === 'object' &&
	data !== null &&
	!Array.isArray(data) &&
	Object.keys(data).length === 0;

/**
 * One call with retries: the answer's headers, its parsed body, and the data inside the envelope.
 */
export type Exchange = (
	method: ApiMethod,
	path: string,
	options: CallOptions,
) => Promise<{ headers: IDataObject; body: unknown; data: unknown }>;

/**
 * GET of a list, whole. One request; when its answer signals more pages (see
 * readers/pagination.ts), the next ones too, combined into one list (items met again are left out,
 * by id). Without a signal the answer is returned as it came. A read that cannot be completed
 * fails: a list cut short would make installations look removed, or new ones look old. So does a
 * 2xx that holds no list (an empty body, `data: null`, an object without a list): read as "none",
 * it would make the trigger report every installation removed, or Get Many answer nothing without a
 * word. `what` names the list in that error ("installations").
 */
export async function readWholeList(
	exchange: Exchange,
	node: INode,
	path: string,
	options: ListOptions,
): Promise<unknown> {
	const read = { ...options, expect: pageExpect(options) };
	const first = await exchange('GET', path, read);
	let next = nextPageOf(first.headers, first.body, 1);
	if (!next) return first.data;
	const items = listOrMap(first.data, options.listKeys);
	const seen = new Set(items.map(itemKey));
	if (options.enough?.(items, items)) return items;
	const fail = (message: string, more: string) =>
		listError(node, message, path, options.itemIndex, more);
	for (let page = 2; next; page++) {
		if (page > MAX_PAGES) throw fail(`The list has more than ${MAX_PAGES} pages`, ENDLESS);
		const query = { ...next, ...options.query };
		const answer = await exchange('GET', path, { ...read, query });
		const fresh = listOrMap(answer.data, options.listKeys).filter(
			(item) => !seen.has(itemKey(item)),
		);
		next = nextPageOf(answer.headers, answer.body, page);
		// The same items again while more pages are promised: the service ignores the page asked for.
		if (fresh.length === 0 && next)
			throw fail(`Page ${page} of the list repeats what was already read`, PAGE_IGNORED);
		for (const item of fresh) {
			seen.add(itemKey(item));
			items.push(item);
		}
		if (options.enough?.(items, fresh)) break;
	}
	return items;
}

const ENDLESS = 'The node stops there rather than loop; nothing was changed.';
const PAGE_IGNORED =
	'The service seems to ignore the page parameter, so the whole list cannot be read. Nothing was changed; report this with the output of `npm run probe`.';

/** What every page must hold: a list, or the read fails as unreadable. */
function pageExpect({ what, listKeys, emptyObjectIsList }: ListOptions): CallOptions['expect'] {
	return {
		what: `list of ${what}`,
		holds: (data: unknown) =>
			holdsList(data, listKeys) || (emptyObjectIsList === true && isEmptyObject(data)),
	};
}

function listError(
	node: INode,
	message: string,
	path: string,
	itemIndex: number | undefined,
	more: string,
): Error {
	return readError(node, message, { method: 'GET', path }, itemIndex, `GET ${path}: ${more}`);
}
