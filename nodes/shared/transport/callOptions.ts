/** What one call is given, and in what context it runs. */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import type { ApiMethod, Call } from './errors';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/**
 * Whose token a call carries (partner mode; with the Access Token credential every call is the end
 * user's):
 * - `endUser`: the item's end user, with a token minted for them;
 * - `partner`: the master token, as the partner credential sends it (the /wl calls);
 * - `masterBearer`: the master token as `Bearer` (update-user-data, as Albato's page shows); with
 *   Send Master Token As on Auto, after a 401 the end user's token once (tokenForms.ts).
 */
export type SendAs = 'endUser' | 'partner' | 'masterBearer';

/**
 * What a call does to the service:
 * - `read`: changes nothing, safe to retry (a GET always is; the token call);
 * - `readOnce`: changes nothing but is not retried (a token looked up by e-mail); sent in Preview;
 * - `write`: may change the service (the default for every method but GET; PUT, PLAY and PAUSE are
 *   still retried, as repeating them changes nothing more).
 */
type Effect = 'read' | 'readOnce' | 'write';

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
	/** Whose token it carries: `endUser` unless said. */
	sendAs?: SendAs;
	/** What it does: `read` for GET, else `write`, unless said. */
	effect?: Effect;
	/**
	 * A /wl call about one end user (their id in the body): a 404 then most likely means there is no
	 * such end user, and its error says so.
	 */
	about?: 'endUser';
	/**
	 * Owed to a customer: the PLAY after this execution paused their installation (and what it needs:
	 * its token, the read that confirms it). Sent even when the execution was cancelled, which stops
	 * every other request.
	 */
	owed?: boolean;
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
}

// Calls that change nothing when repeated: safe to retry. POST (install, create credential) only
// after a 429, which applied nothing.
const IDEMPOTENT = new Set<ApiMethod>(['GET', 'PUT', 'PLAY', 'PAUSE']);

/** One call as its retries and errors see it. */
export function callOf(method: ApiMethod, path: string, options: CallOptions): Call {
	const { effect, sendAs = 'endUser', about } = options;
	return {
		method,
		path,
		itemIndex: options.itemIndex,
		safe: IDEMPOTENT.has(method) || effect === 'read',
		changesNothing: method === 'GET' || effect === 'read' || effect === 'readOnce',
		withMasterToken: sendAs !== 'endUser',
		about,
	};
}
