/** Service errors and their rendering in each error style. */
import { STATUS_CODES } from 'http';

import { renderSuccessFlag } from './render';
import type { ErrorStyle, Variants } from './types';

export interface FieldError {
	/** null for errors that are not about one field. */
	field: string | null;
	message: string;
}

export class ApiError extends Error {
	readonly errors: FieldError[];

	constructor(
		readonly status: number,
		errors: string | FieldError[],
		readonly headers: Record<string, string> = {},
	) {
		const list = typeof errors === 'string' ? [{ field: null, message: errors }] : errors;
		super(list.map((e) => e.message).join('; '));
		this.errors = list;
	}
}

export const notFound = (what: string) => new ApiError(404, `${what} not found`);

export interface RenderedBody {
	contentType: string;
	text: string;
}

const json = (body: unknown): RenderedBody => ({
	contentType: 'application/json; charset=utf-8',
	text: JSON.stringify(body),
});

/** One line summing up all errors: "title: must not be empty; templateIds: ...". */
export function summary(errors: FieldError[]): string {
	return errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ');
}

/** An error body in `style`; `flag` renders its `success: false` (the `successFlag` variant). */
export function renderError(
	style: ErrorStyle,
	status: number,
	errors: FieldError[],
	flag?: Variants['successFlag'],
): RenderedBody {
	const success = renderSuccessFlag(false, flag);
	switch (style) {
		case 'errors':
			return json({ success, errors });
		case 'yii':
			// Yii serialises model validation failures (422) as a bare array of {field, message};
			// everything else (incl. 422s not about a field) as an HttpException object.
			if (status === 422 && errors.every((e) => e.field !== null)) return json(errors);
			return json({
				name: STATUS_CODES[status] ?? 'Error',
				message: summary(errors),
				code: 0,
				status,
			});
		case 'message':
			return json({ message: summary(errors) });
		case 'text':
			return { contentType: 'text/plain; charset=utf-8', text: summary(errors) };
		case 'strings':
			return json({
				success,
				errors: errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)),
			});
		case 'fieldMap': {
			// Non-field errors are listed under an empty key, as Laravel/Yii-like maps do.
			const map: Record<string, string[]> = {};
			for (const e of errors) (map[e.field ?? ''] ??= []).push(e.message);
			return json({ success, errors: map });
		}
		case 'yiiData':
			return json({
				success,
				data: errors.map((e) => ({ field: e.field ?? '', message: e.message })),
			});
		case 'errorObject':
			return json({ success, error: { code: status, message: summary(errors) } });
	}
}
