/**
 * What a fault rule makes of an answer: an answer instead of the request (a status, or 200 with
 * success: false), or the request's own answer spoilt (cut in half, or empty).
 */
import { jsonBody, type Outcome } from './answer';
import { renderError, type FieldError } from './errors';
import { renderSuccessFlag } from './render';
import type { ErrorStyle, FaultRule, Variants } from './types';

/** How errors are written: the error style and the success flag's form. */
export interface ErrorForm {
	style: ErrorStyle;
	successFlag: Variants['successFlag'];
}

/** Faults answered without applying the request: a status, or 200 with success: false. */
export function faultAnswer(
	fault: FaultRule,
	form: ErrorForm,
	authorization?: string,
): Outcome | undefined {
	if (fault.successFalse) {
		return {
			status: 200,
			body: jsonBody({
				success: renderSuccessFlag(false, form.successFlag),
				data: null,
				errors: [{ field: null, message: 'Emulated failure (success: false)' }],
			}),
		};
	}
	if (fault.status && !fault.malformedJson && !fault.emptyBody && !fault.reset) {
		const headers: Record<string, string> = {};
		const retryAfter = fault.retryAfterSeconds ?? (fault.status === 429 ? 1 : undefined);
		if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
		const echo = fault.echoAuthorization ? ` (Authorization: ${authorization ?? 'none'})` : '';
		const errors: FieldError[] = [
			{ field: null, message: `Emulated fault: ${fault.status}${echo}` },
		];
		return {
			status: fault.status,
			body: renderError(form.style, fault.status, errors, form.successFlag),
			headers,
		};
	}
	return undefined;
}

/** The request was applied; its answer as the fault leaves it (cut in half, empty, or as it is). */
export function spoilt(outcome: Outcome, fault: FaultRule | undefined): Outcome {
	if (fault?.malformedJson) {
		const text = outcome.body.text.slice(0, Math.max(1, Math.floor(outcome.body.text.length / 2)));
		return {
			status: fault.status ?? outcome.status,
			body: { contentType: 'application/json; charset=utf-8', text },
		};
	}
	if (fault?.emptyBody)
		return {
			status: fault.status ?? outcome.status,
			body: { contentType: 'application/json; charset=utf-8', text: '' },
		};
	return outcome;
}
