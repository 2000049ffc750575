/** Public types of the emulator (options, control surface, state records). */
import type { EmulatorClock } from './clockApi';
import type {
	CompleteLinkOptions,
	LinkRecord,
	OwnCredentialRecord,
	RefreshRule,
} from './connectionTypes';
import type { RateLimitRule, RateLimitStats } from './rateLimit';
import type { RunInput, RunRecord } from './runTypes';
export type { RateLimitRule, RateLimitStats };
export type {
	PlanFixture,
	RunDateInput,
	RunInput,
	RunOutcome,
	RunRecord,
	RunStepInput,
	RunStepRecord,
} from './runTypes';
export type { CompleteLinkOptions, LinkRecord, OwnCredentialRecord, RefreshRule };

export interface EmulatorOptions {
	/** 0 = a free port (default). */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** HS256 secret for end-user tokens. Default DEFAULT_SECRET. */
	secret?: string;
	/** Status of a newly created installation. Default 0 (paused). */
	initialStatus?: 0 | 1;
	/** Called with one line per request (control calls excluded). Default: silent. */
	log?: (line: string) => void;
	/** The partner behind the /wl endpoints (name, master token, accepted Basic styles, session lifetime). */
	partner?: Partial<PartnerSettings>;
	/** Serve HTTPS with this key and certificate (PEM) instead of HTTP. */
	tls?: { key: string | Buffer; cert: string | Buffer };
}

/** How a master token may be sent: `Basic <token>`, `Basic base64(token:)`, or either. */
export type MasterTokenStyle = 'any' | 'raw' | 'usernamePassword';

export interface PartnerSettings {
	/** The {partner-name} path segment. Default 'acme-saas'. */
	name: string;
	/** Default DEFAULT_MASTER_TOKEN. */
	masterToken: string;
	/** Default 'any'. */
	acceptStyles: MasterTokenStyle;
	/** Lifetime of minted session tokens; 0 or less gives tokens that are already expired. Default 3600. */
	sessionTokenSeconds: number;
}

/**
 * What add-user and get-user-session-token answer (Albato's pages disagree):
 * 'session' sessionToken + sessionTokenValidUntil; 'permanent' permanentToken; 'both' all three;
 * 'token' a single `token` (a session JWT, no validUntil).
 */
export type PartnerTokenVariant = 'session' | 'permanent' | 'both' | 'token';

export interface TokenClaims {
	/** End user. Default 'user-1'. */
	sub?: string;
	/** Lifetime from now. Default 3600. */
	expiresInSeconds?: number;
	/** Absolute expiry (seconds since epoch); wins over expiresInSeconds; may lie in the past. */
	exp?: number;
}

export interface RequestLogEntry {
	/** As sent by the client: PLAY and PAUSE are recorded as such. */
	method: string;
	path: string;
	query: Record<string, unknown>;
	rawQuery: string;
	/** Parsed JSON, the raw text when it is not JSON, undefined when empty. */
	body: unknown;
	/** `sub` of a valid token, else null. */
	user: string | null;
	/** Status sent (or that would have been sent when the socket was reset after the request was applied); 0 for a reset before. */
	status: number;
	/** ISO time the request arrived. */
	at: string;
	/** The fault applied to this call, if any (e.g. 'status:503', 'reset:after'). */
	fault?: string;
	/** How the Authorization header carried its token (never the token). */
	auth: AuthForm;
}

/** How a request's Authorization header carried its token: `Bearer`, Basic username, raw Basic. */
export type AuthForm = 'bearer' | 'basicUsername' | 'basicRaw' | 'none' | 'other';

export interface FaultRule {
	/** Case-insensitive; any method when absent. PLAY/PAUSE match as such. */
	method?: string;
	/** Exact path (without query) or a RegExp tested against it. */
	path: string | RegExp;
	/** Also match the raw query: exact text or a RegExp (e.g. /(^|&)page=2(&|$)/). Any query when absent. */
	query?: string | RegExp;
	/** How many matching calls the rule applies to. Default 1. */
	times?: number;
	/** Answer with this status instead of applying the request (error body in the current style). Ignored with reset. */
	status?: number;
	/** Retry-After header (seconds). Default 1 when status is 429. */
	retryAfterSeconds?: number;
	/** Wait this long before doing anything else. */
	delayMs?: number;
	/** Destroy the socket with no response: 'before' = nothing applied, 'after' = the request is applied first. */
	reset?: 'before' | 'after';
	/** Apply the request, then send its JSON body cut in half (with `status` when given, else the real status). */
	malformedJson?: boolean;
	/** Apply the request, then answer its status (or `status`) with an empty body. */
	emptyBody?: boolean;
	/** Do not apply; answer 200 with success: false. */
	successFalse?: boolean;
	/** Do not apply; answer as a GET of the same path would (a PLAY answered 200 with the installation unchanged). */
	answerAsGet?: boolean;
	/** With `status`: the error message quotes the request's Authorization header, as some gateways and debug builds do. */
	echoAuthorization?: boolean;
}

/**
 * Error body styles. `errors` {success:false, errors:[{field, message}]}; `yii` bare [{field, message}] for
 * field 422s, else {name, message, code, status}; `message` {message}; `text` text/plain;
 * `strings` {success:false, errors:["text"]}; `fieldMap` {success:false, errors:{field:["text"]}};
 * `yiiData` {success:false, data:[{field, message}]}; `errorObject` {success:false, error:{code, message}}.
 */
export type ErrorStyle =
	| 'errors'
	| 'yii'
	| 'message'
	| 'text'
	| 'strings'
	| 'fieldMap'
	| 'yiiData'
	| 'errorObject';

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

/** A field of a bundle step; `type` is internal (used to validate updates), never rendered. */
export interface FieldRecord {
	name: string;
	label: string;
	type: 'string' | 'number' | 'boolean' | 'listRef' | 'list' | 'object';
	/** Whether the field may also hold null (no value). */
	nullable?: boolean;
	value: string | number | boolean | null | unknown[] | Record<string, unknown>;
}

export interface InstallationRecord {
	id: number;
	userId: string;
	solutionId: number;
	solutionVersion: number;
	title: string;
	status: 0 | 1;
	settings: Record<string, unknown>;
	credentialData: Record<string, string>;
	bundleIds: number[];
	dateCreated: string;
	dateUpdated: string;
}

export interface BundleRecord {
	id: number;
	installationId: number;
	templateId: number;
	title: string;
	stepIds: number[];
}

/** One bundle step data record (GET /bundle/data). */
export interface BundleStepRecord {
	id: number;
	bundleId: number;
	title: string;
	fields: FieldRecord[];
}

export interface CredentialRecord {
	id: number;
	userId: string;
	partnerId: number;
	title: string;
	/** Stored in full; rendered with secrets masked. */
	values: Record<string, string>;
	dateCreated: string;
}

/** An end user created at run time through /wl/{partner}/add-user. */
export interface EndUserRecord {
	/** Albato's numeric id. */
	albatoId: number;
	/** The partner's own id of the user (the add-user body's `id`). */
	id: string;
	partner: string;
	email: string;
	/** The token subject, i.e. the installations' `userId`: `<partner>:<id>`. */
	sub: string;
	/** Opaque (not a JWT), stable per user. */
	permanentToken: string;
	timezoneOffset?: number;
	language?: string;
	dateCreated: string;
}

export interface EmulatorState {
	installations: Map<number, InstallationRecord>;
	bundles: Map<number, BundleRecord>;
	/** Bundle step data records, by bundle step id. */
	bundleData: Map<number, BundleStepRecord>;
	credentials: Map<number, CredentialRecord>;
	/** End users created at run time, by `<partner>\n<id>`. */
	endUsers: Map<string, EndUserRecord>;
	/** Permanent token → token subject. */
	permanentTokens: Map<string, string>;
	nextIds: {
		installation: number;
		bundle: number;
		step: number;
		credential: number;
		endUser: number;
	};
}

export interface Emulator {
	/** e.g. http://127.0.0.1:34567 (no trailing slash). */
	baseUrl: string;
	/** HS256 JWT signed with the emulator's secret. Default sub 'user-1', exp in 1 h. */
	token(claims?: TokenClaims): string;
	/** Every service call (not /__emulator/ ones), oldest first. */
	requests: RequestLogEntry[];
	faults: { add(rule: FaultRule): void; clear(): void; list(): FaultRule[] };
	setErrorStyle(style: ErrorStyle): void;
	setVariants(v: Partial<Variants>): void;
	/** The list leaves out new installations for N list calls and/or T ms (see listLag.ts); reset clears it. */
	setListLag(lag: { reads?: number; ms?: number }): void;
	/** The partner of the /wl endpoints; `set` changes accepted styles or session lifetime (until reset). */
	partner: {
		readonly name: string;
		readonly masterToken: string;
		settings(): PartnerSettings;
		set(s: Partial<PartnerSettings>): void;
	};
	state: EmulatorState;
	/** Simulates an installation removed by the user elsewhere (the spec has no delete endpoint). */
	removeInstallation(id: number): void;
	/** Limit the requests served at once (429 + Retry-After above it); null lifts it. */
	setRateLimit(rule: RateLimitRule | null): void;
	/** The rate limit's rule and counters (peak, admitted, rejected), or null. */
	rateLimit(): RateLimitStats | null;
	/** Records a run (bundle event) for a bundle; throws on an unknown bundle or a bad input. */
	recordRun(run: RunInput): RunRecord;
	/** Every recorded run (fixture runs included), any user. */
	runs(): RunRecord[];
	/** Sets an end user's transactions used this month (by the partner's own id of the user). */
	setTransactionsUsed(id: string, used: number): void;
	/** Billing: take a user's plan away (no active plan), and whether a user is blocked. */
	billing: { clearPlan(id: string): void; isBlocked(id: string): boolean };
	/** Connection by link: the sharings, and the control call that completes one. */
	links: {
		/** As if the customer connected: creates the credential; throws (status 404/409) when unknown, expired or used. */
		complete(id: number, options?: CompleteLinkOptions): CredentialRecord;
		get(id: number): LinkRecord | undefined;
		list(): LinkRecord[];
		/** https://connect.integrations-hub.com?id=<id>&token=<token> */
		url(id: number): string;
		/** Emulator-clock ms at which the link stops working. */
		expiresAt(id: number): number;
	};
	/** The emulator's clock; reset() puts it back to real time. */
	clock: EmulatorClock;
	/** What successive update-user-data calls answer: {mode: 'progress'} 1→2→3 (default), {mode: 'requeued'} 4, or {sequence}. */
	setUpdateUserData(rule: { mode?: 'progress' | 'requeued'; sequence?: number[] }): RefreshRule;
	/** The partners' own connections (upsert-own-credential), stored unmasked. */
	ownCredentials: {
		/** Seeds one more own connection for a user (token subject), e.g. to have several. */
		add(sub: string, values: Record<string, string | number>, title?: string): OwnCredentialRecord;
		list(sub?: string): OwnCredentialRecord[];
	};
	/** Back to the fixtures; clears the log, faults, variants, error style and rate limit. */
	reset(): void;
	close(): Promise<void>;
}
