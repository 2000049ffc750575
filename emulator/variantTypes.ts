/** The variants: where Albato's pages disagree or say nothing, each way the service might answer (render.ts holds the defaults and choices). */
/**
 * What add-user and get-user-session-token answer (Albato's pages disagree):
 * 'session' sessionToken + sessionTokenValidUntil; 'permanent' permanentToken; 'both' all three;
 * 'token' a single `token` (a session JWT, no validUntil).
 */
export type PartnerTokenVariant = 'session' | 'permanent' | 'both' | 'token';

export interface Variants {
	/** No {success, data} envelope on any successful response. */
	bare: boolean;
	/** The envelope's `success` flag (successes and `{success: false, …}` error bodies): true/false (default), "true"/"false", or 1/0. */
	successFlag: 'boolean' | 'string' | 'number';
	/** Every integer id rendered as a numeric string. */
	stringIds: boolean;
	/** Credentialist step values as plain strings instead of {value, title}. */
	plainValues: boolean;
	/** GET /solution/installation items carry only id and title. */
	listWithoutStatus: boolean;
	/** List bodies inside {items: [...]}. */
	wrapLists: boolean;
	/** The token fields of the /wl responses. Default 'both'. */
	partnerTokens: PartnerTokenVariant;
	// Shapes the public docs leave open (see emulator/README.md "Variants"); defaults are the documented choices.
	/** Credentialist values: [{value,title}] (default), [{id,title}], [{id,value}] or an {id: title} map. plainValues wins. */
	valuesShape: 'valueTitle' | 'idTitle' | 'idValue' | 'map';
	/** Nested steps under the step (default) or under each value ({..., nested}); a map of values keeps them under the step. */
	nestedUnder: 'step' | 'value';
	/** The four lists (solutions, templates, installations, bundle data): JSON lists (default) or maps keyed by id, as the detail's `bundles` is. */
	listShape: 'list' | 'map';
	/** GET /bundle/data: a list of records (default) or a map keyed by bundle step id. */
	bundleDataShape: 'list' | 'map';
	/** A record's fields: [{name,label,value}] (default) or a {code: value} map (no labels). */
	fieldsShape: 'list' | 'map';
	/** Installation status: 1/0 (default), "1"/"0", or "active"/"paused". */
	statusShape: 'number' | 'string' | 'word';
	/** GET /solution/installation/{id} and the install answer carry no status (the list and PLAY/PAUSE still do). */
	detailWithoutStatus: boolean;
	/** The status of the refusal to change field values of an active installation: 422 (the seed), 409 or 400. */
	activeRefusal: '422' | '409' | '400';
	/** PLAY and PAUSE answer the installation without its status (a 2xx that does not say the new status). */
	statusCallWithoutStatus: boolean;
	/** Installation answers (detail, install, PLAY, PAUSE) wrapped as {installation: {...}}. */
	installationWrapper: boolean;
	/** Credential meta fields without `required`. */
	metaRequired: boolean;
	/** Credential meta with field types other than 0/3/10 (1 integer, 5 boolean, 7 email) on an optional field. */
	metaExtraTypes: boolean;
	/** Credential create body: flat {title, ...fields} (default) or {title, fields: {...}}. */
	credentialBody: 'flat' | 'fields';
	/**
	 * Lists (solutions, templates, installations, bundle data) whole (default), or paged as Yii2 pages
	 * them (PAGE_SIZE items, `per-page` honoured): 'headers' X-Pagination-* only, 'link' a Link header
	 * only, 'body' data = {items, _links, _meta}, 'meta' data = {data, meta: {current_page, last_page, per_page}} (Laravel's names). See pagination.ts.
	 */
	pagination: 'none' | 'headers' | 'link' | 'body' | 'meta';
	/** The query parameter the pager reads: 'page' (Yii's default) or 'p' (a renamed pageParam; `page` is then ignored). */
	pageParam: 'page' | 'p';
	// Run history and user lifecycle (emulator/README.md "Variants").
	/** GET /bundle/events?expand=steps: `steps` as levels (list of lists, as documented) or one flat list. */
	runSteps: 'levels' | 'flat';
	/** Run and step statuses as codes (default; 0 in progress, 1 succeeded, 2 failed) or as words ("processing", "success", "error"). */
	runStatuses: 'codes' | 'words';
	/** Run and step dates: "YYYY-MM-DD HH:MM:SS" in UTC (default), the same in the end user's timezoneOffset, or ISO 8601 with +00:00. */
	runDates: 'utc' | 'userOffset' | 'iso';
	/** GET /bundle/events/steps/{id}: the step as an object (default), or a list holding it alone. */
	runStepAnswer: 'object' | 'list';
	/**
	 * GET /bundle/events order (Albato documents none): 'newest' (date, then id, newest
	 * first; default), 'oldest' (the reverse), 'idDesc' (by id only, newest id first, whatever the
	 * dates), 'shuffled' (a fixed pseudo-random order per list).
	 */
	runOrder: 'newest' | 'oldest' | 'idDesc' | 'shuffled';
	/** get-user-profile: with planId and trxLimit (billing plans on; default) or without (the docs' example). */
	profileShape: 'billing' | 'basic';
	/** get-user-profile?expand=transactions: adds {transactions: {limit, used, left}} (default) or nothing. */
	profileTransactions: 'object' | 'none';
	// Billing (emulator/README.md "Billing").
	/** list-plans takes GET and POST (the page's "GET | POST"; default), or only one of them (the other: 405). */
	listPlansMethod: 'both' | 'get' | 'post';
	/** get-own-credential-metadata takes GET and POST (the page's "GET|POST"; default), or only one (the other: 405). */
	ownMetadataMethod: 'both' | 'get' | 'post';
	/** set-user-plan lifts a block (default) or leaves the user blocked: the emulator's choice 28 (emulator/README.md). */
	setPlanUnblocks: 'yes' | 'no';
	// Connection by link, update-user-data, own connection: see emulator/README.md "Connections".
	/** A sharing's `dateCreated`: an ISO time (default), or null as the docs' example shows. */
	linkDateCreated: 'iso' | 'null';
	/** An expired, unused sharing reads status 0 like a waiting one (default; nothing documented says otherwise), or 2. */
	linkExpiredStatus: 'waiting' | 'expired';
	/** DELETE of a sharing answers 200 {id} in the envelope (default), or 204 with no body (Yii's REST default). */
	linkDeleteAnswer: 'envelope' | 'noContent';
	/** Renew answers the sharing with its new token (default), 204 with no body, `{id}`, or `data: []`. */
	linkRenewAnswer: 'sharing' | 'noContent' | 'id' | 'emptyList';
	/** A sharing read (GET) shows its token (default), or leaves it out. */
	linkReadToken: 'shown' | 'hidden';
	/** update-user-data takes the master token as Bearer or the owner's end-user token (default), only the master token, or only end-user tokens. */
	updateUserDataAuth: 'either' | 'master' | 'user';
	/** get-own-credential-metadata takes an end-user token or the master token as Basic (default, as the page says), only the user's, or only the master's. */
	ownMetadataAuth: 'either' | 'user' | 'master';
	/** Unknown extra fields in the sharing, update-user-data and own-connection answers. */
	connectionExtraFields: boolean;
	/**
	 * One strict reading of how Albato takes a token (default 'lenient': every form). 'noRawBasic':
	 * no `Basic <token>`; 'noBasicUsername': no `Basic base64("<token>:")`; 'noBearerPermanent': a
	 * permanent token only as Basic username; 'panelToken' / 'sessionToken': update-user-data takes
	 * only the master (panel) token as Bearer / only an end user's session token.
	 */
	strictAuth: StrictAuth;
}

export type StrictAuth =
	| 'lenient'
	| 'noRawBasic'
	| 'noBasicUsername'
	| 'noBearerPermanent'
	| 'panelToken'
	| 'sessionToken';
