/** A handler's result as the service sends it: the JSON envelope, a list rendered and paged. */
import type { RenderedBody } from './errors';
import type { HandlerResult } from './handlers/context';
import { pageOfList } from './pagination';
import { renderList, successBody } from './render';
import type { Variants } from './types';

/** What the pipeline answers a request. */
export interface Outcome {
	status: number;
	body: RenderedBody;
	headers?: Record<string, string>;
}

export const jsonBody = (value: unknown): RenderedBody => ({
	contentType: 'application/json; charset=utf-8',
	text: JSON.stringify(value),
});

/** Where the answer goes and how: a list route's page, in the current variants. */
export interface AnswerFor {
	list?: boolean;
	query: Record<string, unknown>;
	variants: Variants;
	/** The request's URL without its query (the paging links name it). */
	url: string;
}

/** The handler's result in the envelope: a list route's list rendered, and paged when it pages. */
export function answerOf(
	result: HandlerResult,
	{ list, query, variants, url }: AnswerFor,
): Outcome {
	const page = list ? pageOfList(result.data, query, variants, url) : undefined;
	if (page) {
		return {
			status: result.status ?? 200,
			body: jsonBody(successBody(renderList(page.data, variants), variants)),
			headers: page.headers,
		};
	}
	if (result.status === 204)
		return { status: 204, body: { contentType: 'application/json; charset=utf-8', text: '' } };
	const data = list ? renderList(result.data, variants) : result.data;
	return { status: result.status ?? 200, body: jsonBody(successBody(data, variants)) };
}
