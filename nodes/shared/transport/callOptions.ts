/** What one call is given, and in what context it runs. */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import type { ApiMethod, Call } from './errors';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** One call's options (not the UI's Request Options: those are the client's TransportOptions). */
export interface CallOptions {
	/** Query parameters, encoded here. */
	query?: Record<string, string | number>;
	/**
	 * A query string sent exactly as given (the service reads some parameters literally, e.g.
	 * `+bundles.steps`).
	 */
	rawQuery?: string;
	body?: IDataObject;
	itemIndex?: number;
	/**
	 * Partner mode: sent with the master token (the /wl endpoints) instead of as the item's end user.
	 */
	asPartner?: boolean;
	/** A POST that changes nothing (the token call): retried like GET. */
	idempotent?: boolean;
	/**
	 * A POST that changes nothing but is not retried (a token looked up by e-mail): sent in Preview.
	 */
	readsOnly?: boolean;
	/**
	 * What a 2xx answer must hold to be used (e.g. a list, an installation). One that does not (an
	 * empty body, `data: null`, another shape) fails as unreadable: it is never taken for "none" or
	 * "done".
	 */
	expect?: { what: string; holds: (data: unknown) => boolean };
	/** Secrets of this one call (a link token, field values sent): redacted from its errors. */
	secrets?: string[];
	/**
	 * Answer keys whose values are secret (e.g. a link's `token`): redacted from this call's errors.
	 */
	secretKeys?: string[];
	/**
	 * Partner mode: sent with the master token as `Bearer` (update-user-data, as Albato's page
	 * shows).
	 */
	asMaster?: boolean;
	/**
	 * Owed to the customer (the PLAY after a pause this execution made): sent even when the
	 * execution was cancelled, which aborts or stops every other request.
	 */
	evenIfCancelled?: boolean;
}

// Calls that change nothing when repeated: safe to retry. POST (install, create credential) only
// after a 429, which applied nothing.
const IDEMPOTENT = new Set<ApiMethod>(['GET', 'PUT', 'PLAY', 'PAUSE']);

/** One call as its retries and errors see it. */
export function callOf(method: ApiMethod, path: string, options: CallOptions): Call {
	return {
		method,
		path,
		itemIndex: options.itemIndex,
		safe: IDEMPOTENT.has(method) || options.idempotent === true,
		changesNothing: method === 'GET' || options.idempotent === true || options.readsOnly === true,
		withMasterToken: options.asPartner === true || options.asMaster === true,
	};
}
