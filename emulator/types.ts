/** Public types of the emulator (options, control surface, state records). */
import type { RateLimitRule, RateLimitStats } from './rateLimit';

export type { RateLimitRule, RateLimitStats };

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
	/** Serve HTTPS with this key and certificate (PEM) instead of HTTP. */
	tls?: { key: string | Buffer; cert: string | Buffer };
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
}

export interface FaultRule {
	/** Case-insensitive; any method when absent. PLAY/PAUSE match as such. */
	method?: string;
	/** Exact path (without query) or a RegExp tested against it. */
	path: string | RegExp;
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
	/** Do not apply; answer 200 with success: false. */
	successFalse?: boolean;
}

export type ErrorStyle = 'errors' | 'yii' | 'message' | 'text';

export interface Variants {
	/** No {success, data} envelope on any successful response. */
	bare: boolean;
	/** Every integer id rendered as a numeric string. */
	stringIds: boolean;
	/** Credentialist step values as plain strings instead of {value, title}. */
	plainValues: boolean;
	/** GET /solution/installation items carry only id and title. */
	listWithoutStatus: boolean;
	/** List bodies inside {items: [...]}. */
	wrapLists: boolean;
}

/** A field of a bundle step; `type` is internal (used to validate updates), never rendered. */
export interface FieldRecord {
	name: string;
	label: string;
	type: 'string' | 'number' | 'boolean' | 'listRef';
	value: string | number | boolean;
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

export interface EmulatorState {
	installations: Map<number, InstallationRecord>;
	bundles: Map<number, BundleRecord>;
	/** Bundle step data records, by bundle step id. */
	bundleData: Map<number, BundleStepRecord>;
	credentials: Map<number, CredentialRecord>;
	nextIds: { installation: number; bundle: number; step: number; credential: number };
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
	state: EmulatorState;
	/** Simulates an installation removed by the user elsewhere (the spec has no delete endpoint). */
	removeInstallation(id: number): void;
	/** Limit the requests served at once (429 + Retry-After above it); null lifts it. */
	setRateLimit(rule: RateLimitRule | null): void;
	/** The rate limit's rule and counters (peak, admitted, rejected), or null. */
	rateLimit(): RateLimitStats | null;
	/** Back to the fixtures; clears the log, faults, variants, error style and rate limit. */
	reset(): void;
	close(): Promise<void>;
}
