/**
 * The probe's list parts: how a list comes (bare, wrapped, or a map keyed by id) and its ids, read
 * from the solution list; and how lists page (Yii2: X-Pagination-* headers, a Link header, or
 * _links/_meta in the body).
 */
import { pagingStyleOf } from '../../nodes/shared/readers/pagination';
import { unwrapEnvelope } from '../../nodes/shared/readers/shapes';
import type { Answer, Probe } from './context';
import { describe, isObject, keyedById, keys, listOf, type Json } from './shapes';

/** The list shape, read from GET /solution/apps's body; the solutions listed. */
export function probeLists(
	{ say, unknown, variants }: Probe,
	body: Json,
): Array<Record<string, unknown>> {
	const data = unwrapEnvelope(body);
	variants.wrapLists = isObject(data) && Array.isArray(data.items);
	const byId = keyedById(data);
	variants.listShape = byId ? 'map' : 'list';
	say('lists', listsText(data, byId));
	const solutions = listOf(data, 'solution list', unknown).filter(isObject);
	say('solution item keys', keys(solutions[0]));
	if (solutions[0]) {
		variants.stringIds = typeof solutions[0].id === 'string';
		say('ids', typeof solutions[0].id === 'string' ? 'numeric strings' : typeof solutions[0].id);
	}
	return solutions;
}

function listsText(data: Json, byId: boolean): string {
	if (Array.isArray(data)) return 'bare arrays';
	if (byId) return 'maps keyed by id';
	return isObject(data) ? `wrapped in {${Object.keys(data).join(', ')}}` : describe(data);
}

/** The paging style: the first signal any of the list answers carries. */
export function probePaging({ say, variants }: Probe, answers: Answer[]): void {
	const paging =
		answers
			.map((answer) => pagingStyleOf(answer.headers, answer.body))
			.find((style) => style !== 'none') ?? 'none';
	variants.pagination = paging;
	say(
		'list paging',
		paging === 'none'
			? 'no paging signal (lists come whole, or fit in one page)'
			: paging === 'headers'
				? 'X-Pagination-* headers'
				: paging === 'link'
					? 'a Link header'
					: '{items, _links, _meta} in the body',
	);
}
