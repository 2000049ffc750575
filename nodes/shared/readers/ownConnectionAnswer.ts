/**
 * The partner's own connection (upsert-own-credential, get-own-credential): the service sends
 * secrets masked ("••570f"; credential create uses "****"). A masked value is never a real one.
 */
import type { IDataObject } from 'n8n-workflow';

import { isObject } from './shapes';

/**
 * "••570f", "••", "****", "***abcd", "[hidden]": what the service (or we) put in place of a secret.
 */
export function isMasked(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	const text = value.trim();
	return /^(•{2,}|\*{3,}|…)/.test(text) || text === '[hidden]';
}

/** Keys of an answer that are not field values. */
const NOT_FIELDS = new Set(['title', 'webhookUrl', 'id', 'dateCreated', 'dateUpdated']);

/**
 * The answer with the masked values flagged: `maskedFields` lists them, so a next node knows they
 * are not the real values (and that they must not be sent back).
 */
export function ownConnectionOutput(data: unknown): IDataObject {
	const answer: IDataObject = isObject(data) ? { ...data } : {};
	const masked = Object.keys(answer).filter((key) => !NOT_FIELDS.has(key) && isMasked(answer[key]));
	return { ...answer, maskedFields: masked };
}
