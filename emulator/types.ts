/** Public types of the emulator (options, control surface; the state's records are stateTypes.ts). */
import type { EmulatorClock } from './clockApi';
import type {
	CompleteLinkOptions,
	LinkRecord,
	OwnCredentialRecord,
	RefreshRule,
} from './connectionTypes';
import type { RateLimitRule, RateLimitStats } from './rateLimit';
import type { RunInput, RunRecord } from './runTypes';
import type { CredentialRecord, EmulatorState } from './stateTypes';
import type { Variants } from './variantTypes';
export type { PartnerTokenVariant, StrictAuth, Variants } from './variantTypes';
export type { RateLimitRule, RateLimitStats };
export type {
	BundleRecord,
	BundleStepRecord,
	CredentialRecord,
	EmulatorState,
	EndUserRecord,
	FieldRecord,
	InstallationRecord,
} from './stateTypes';
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
