/** The request pipeline: log, faults, routing, auth, body parsing, rendering. */
import { RequestSummary } from './fleetControl';
import type http from 'http';
import qs from 'qs';

import { authenticate, authFormOf, signToken } from './auth';
import { authenticatePartner } from './handlers/partner';
import { runsOf } from './handlers/runs';
import { assertNotDeleted, lifecycleOf } from './handlers/userLifecycle';
import { billingOf } from './handlers/billing';
import { ApiError, renderError, type FieldError } from './errors';
import { customerResolver } from './customerFaults';
import { describeFault, FaultStore } from './faults';
import { listLagOf } from './listLag';
import { connectionsOf } from './connections';
import { createState, DEFAULT_MASTER_TOKEN, DEFAULT_PARTNER, loadFixtures } from './fixtures';
import { customMethodOf, trackRequestEnd } from './front';
import { RateLimit, type RateLimitRule } from './rateLimit';
import { answerOf, jsonBody, type Outcome } from './answer';
import { match } from './routes';
import { DEFAULT_VARIANTS, renderSuccessFlag, VARIANT_CHOICES } from './render';
import type {
	EmulatorState,
	ErrorStyle,
	FaultRule,
	PartnerSettings,
	RequestLogEntry,
	TokenClaims,
	Variants,
} from './types';

const BODY_LIMIT = 1024 * 1024;
/** Every error style, in the order the tests walk them (the default first). */
export const ERROR_STYLES: readonly ErrorStyle[] = [
	'errors',
	'yii',
	'message',
	'text',
	'strings',
	'fieldMap',
	'yiiData',
	'errorObject',
];

/** One request as it entered: the method (custom ones restored), the path, the raw query and body. */
export interface ReceivedRequest {
	method: string;
	url: string;
	path: string;
	rawQuery: string;
	rawBody: Buffer;
}

/** PHP/Yii-like query parsing: `+` is a space, brackets (raw or %5B%5D) build objects, last duplicate wins. */
export const parseQuery = (raw: string) =>
	qs.parse(raw, { parseArrays: false, duplicates: 'last', depth: 5 }) as Record<string, unknown>;

export class EmulatorCore {
	readonly state: EmulatorState = createState();
	readonly faults = new FaultStore(customerResolver(this));
	readonly requests: RequestLogEntry[] = [];
	/** Counts of every call served (fleets read this instead of the log). */
	readonly summary = new RequestSummary();
	/** False: calls are only counted in `summary` (the log stays empty, its memory bounded). */
	keepLog = true;
	errorStyle: ErrorStyle = 'errors';
	variants: Variants = { ...DEFAULT_VARIANTS };
	partner: PartnerSettings;
	rateLimit: RateLimit | null = null;

	constructor(
		readonly secret: string,
		readonly initialStatus: 0 | 1,
		private readonly log?: (line: string) => void,
		private readonly partnerDefaults: PartnerSettings = {
			name: DEFAULT_PARTNER,
			masterToken: DEFAULT_MASTER_TOKEN,
			acceptStyles: 'any',
			sessionTokenSeconds: 3600,
		},
	) {
		this.partner = { ...partnerDefaults };
	}

	setPartner(settings: Partial<PartnerSettings>): void {
		for (const key of Object.keys(settings)) {
			if (!(key in this.partnerDefaults))
				throw new Error(
					`unknown partner setting "${key}"; use ${Object.keys(this.partnerDefaults).join(', ')}`,
				);
		}
		if (
			settings.acceptStyles &&
			!['any', 'raw', 'usernamePassword'].includes(settings.acceptStyles)
		) {
			throw new Error('acceptStyles must be "any", "raw" or "usernamePassword"');
		}
		this.partner = { ...this.partner, ...settings };
	}

	token(claims?: TokenClaims): string {
		return signToken(this.secret, claims);
	}

	setErrorStyle(style: ErrorStyle): void {
		if (!ERROR_STYLES.includes(style))
			throw new Error(`unknown error style "${style}"; use one of ${ERROR_STYLES.join(', ')}`);
		this.errorStyle = style;
	}

	setVariants(v: Partial<Variants>): void {
		for (const [key, value] of Object.entries(v)) {
			if (!(key in DEFAULT_VARIANTS))
				throw new Error(
					`unknown variant "${key}"; use ${Object.keys(DEFAULT_VARIANTS).join(', ')}`,
				);
			const allowed = VARIANT_CHOICES[key as keyof Variants] as readonly unknown[];
			if (!allowed.includes(value))
				throw new Error(
					`variant "${key}" cannot be ${JSON.stringify(value)}; use ${allowed.map((a) => JSON.stringify(a)).join(', ')}`,
				);
		}
		this.variants = { ...this.variants, ...v };
	}

	removeInstallation(id: number): void {
		const inst = this.state.installations.get(id);
		if (!inst) return;
		for (const bundleId of inst.bundleIds) {
			for (const stepId of this.state.bundles.get(bundleId)?.stepIds ?? [])
				this.state.bundleData.delete(stepId);
			this.state.bundles.delete(bundleId);
		}
		this.state.installations.delete(id);
	}

	reset(): void {
		loadFixtures(this.state);
		this.requests.length = 0;
		this.summary.clear();
		this.keepLog = true;
		this.faults.clear();
		this.errorStyle = 'errors';
		this.variants = { ...DEFAULT_VARIANTS };
		listLagOf(this.state).clear();
		connectionsOf(this.state).clear();
		this.partner = { ...this.partnerDefaults };
		this.rateLimit = null;
		runsOf(this.state).reset();
		lifecycleOf(this.state).reset();
		billingOf(this.state).reset();
	}

	setRateLimit(rule: RateLimitRule | null): void {
		this.rateLimit = rule ? new RateLimit(rule) : null;
	}

	/**
	 * Reads one request where it enters (custom method, path, query, body). When the body cannot be
	 * read it answers the error itself and gives undefined.
	 */
	async receive(
		req: http.IncomingMessage,
		res: http.ServerResponse,
	): Promise<ReceivedRequest | undefined> {
		trackRequestEnd(req, res);
		const custom = customMethodOf(req);
		// Rewritten requests close their connection: the next request then starts on a fresh socket.
		if (custom) res.setHeader('Connection', 'close');
		const method = custom ?? req.method ?? 'GET';
		const url = req.url ?? '/';
		const q = url.indexOf('?');
		const path = q === -1 ? url : url.slice(0, q);
		const rawQuery = q === -1 ? '' : url.slice(q + 1);

		let rawBody: Buffer;
		try {
			rawBody = await readBody(req);
		} catch (err) {
			if (!(err instanceof ApiError)) throw err;
			res.setHeader('Connection', 'close');
			send(res, {
				status: err.status,
				body: renderError(this.errorStyle, err.status, err.errors, this.variants.successFlag),
			});
			return undefined;
		}

		return { method, url, path, rawQuery, rawBody };
	}

	/** Answers one service request (spec routes and partner routes): log, faults, routing, auth. */
	async respond(
		request: ReceivedRequest,
		req: http.IncomingMessage,
		res: http.ServerResponse,
	): Promise<void> {
		const { method, url, path, rawQuery, rawBody } = request;
		const started = Date.now();
		const query = parseQuery(rawQuery);
		const entry: RequestLogEntry = {
			method,
			path,
			query,
			rawQuery,
			body: bodyForLog(rawBody),
			user: null,
			status: 0,
			at: new Date(started).toISOString(),
			auth: authFormOf(req.headers.authorization),
		};
		if (this.keepLog) this.requests.push(entry);
		const finish = (status: number) => {
			entry.status = status;
			this.summary.add(entry);
			this.log?.(
				`${entry.at} ${method} ${url} ${status || 'reset'} ${entry.user ?? '-'} ${Date.now() - started}ms${entry.fault ? ` fault=${entry.fault}` : ''}`,
			);
		};

		if (this.rateLimit) {
			const { retryAfterSeconds, serviceMs } = this.rateLimit.stats;
			if (!this.rateLimit.admit(res)) {
				entry.fault = 'rate-limit';
				finish(429);
				const body = renderError(
					this.errorStyle,
					429,
					[{ field: null, message: 'Too many requests at once: retry later' }],
					this.variants.successFlag,
				);
				return send(res, {
					status: 429,
					body,
					headers: { 'Retry-After': String(retryAfterSeconds) },
				});
			}
			if (serviceMs) await sleep(serviceMs);
		}

		const fault = this.faults.take(method, path, rawQuery, req.headers.authorization);
		if (fault) entry.fault = describeFault(fault);
		if (fault?.delayMs) await sleep(fault.delayMs);
		if (fault?.reset === 'before') {
			finish(0);
			return reset(req);
		}
		const early = fault && this.faultResponse(fault, req.headers.authorization);
		if (early) {
			finish(early.status);
			return send(res, early);
		}

		const origin = `${'encrypted' in req.socket ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;
		// `answerAsGet`: not applied; answered as a GET of the same path would be (e.g. a PLAY answered
		// 200 with the installation as it is, still paused).
		const outcome = fault?.answerAsGet
			? this.serve('GET', path, query, Buffer.alloc(0), req.headers, entry, origin)
			: this.serve(method, path, query, rawBody, req.headers, entry, origin);
		finish(outcome.status);
		if (fault?.reset === 'after') return reset(req);
		if (fault?.malformedJson) {
			// The request was applied; its response arrives cut in half.
			const text = outcome.body.text.slice(
				0,
				Math.max(1, Math.floor(outcome.body.text.length / 2)),
			);
			return send(res, {
				status: fault.status ?? outcome.status,
				body: { contentType: 'application/json; charset=utf-8', text },
			});
		}
		if (fault?.emptyBody)
			return send(res, {
				status: fault.status ?? outcome.status,
				body: { contentType: 'application/json; charset=utf-8', text: '' },
			});
		send(res, outcome);
	}

	/** Faults answered without applying the request: a status, or 200 with success: false. */
	private faultResponse(fault: FaultRule, authorization?: string): Outcome | undefined {
		if (fault.successFalse) {
			return {
				status: 200,
				body: jsonBody({
					success: renderSuccessFlag(false, this.variants.successFlag),
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
				body: renderError(this.errorStyle, fault.status, errors, this.variants.successFlag),
				headers,
			};
		}
		return undefined;
	}

	/** Routes, authenticates, parses the body and runs the handler; any ApiError becomes an error body. */
	private serve(
		method: string,
		path: string,
		query: Record<string, unknown>,
		rawBody: Buffer,
		headers: http.IncomingHttpHeaders,
		entry: RequestLogEntry,
		origin: string,
	): Outcome {
		try {
			const route = match(method, path);
			// The /wl endpoints take the partner's master token; the log names the partner as the user.
			const user = route.auth
				? // A deleted user's token stops working on these routes too.
					assertNotDeleted(
						this.state,
						route.auth(headers.authorization, {
							secret: this.secret,
							permanentTokens: this.state.permanentTokens,
							partner: this.partner,
							variants: this.variants,
							segment: route.segment,
						}),
					)
				: route.partner
					? authenticatePartner(
							headers.authorization,
							this.partner,
							route.segment,
							this.variants.strictAuth,
						)
					: assertNotDeleted(
							this.state,
							authenticate(
								headers.authorization,
								this.secret,
								this.state.permanentTokens,
								this.variants.strictAuth,
							),
						);
			entry.user = user;
			const body = route.readsBody ? parseJsonObject(rawBody, headers['content-type']) : undefined;
			const result = route.handler({
				user,
				state: this.state,
				id: route.id,
				params: route.params,
				query,
				body,
				variants: this.variants,
				initialStatus: this.initialStatus,
				partner: { settings: this.partner, secret: this.secret },
			});
			return answerOf(result, {
				list: route.list,
				query,
				variants: this.variants,
				url: origin + path,
			});
		} catch (err) {
			const error =
				err instanceof ApiError
					? err
					: new ApiError(500, `Internal emulator error: ${(err as Error).message}`);
			const extra: Record<string, string> =
				error.status === 401 ? { 'WWW-Authenticate': 'Bearer', ...error.headers } : error.headers;
			return {
				status: error.status,
				body: renderError(this.errorStyle, error.status, error.errors, this.variants.successFlag),
				headers: extra,
			};
		}
	}
}

function parseJsonObject(raw: Buffer, contentType: string | undefined): Record<string, unknown> {
	if (raw.length === 0) return {};
	if (!contentType || !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
		throw new ApiError(415, `Content-Type must be application/json (got ${contentType ?? 'none'})`);
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(raw.toString('utf8'));
	} catch (err) {
		throw new ApiError(400, `Invalid JSON body: ${(err as Error).message}`);
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
		throw new ApiError(400, 'JSON body must be an object');
	return parsed as Record<string, unknown>;
}

function bodyForLog(raw: Buffer): unknown {
	if (raw.length === 0) return undefined;
	const text = raw.toString('utf8');
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
	const declared = Number(req.headers['content-length'] ?? 0);
	if (declared > BODY_LIMIT)
		return Promise.reject(new ApiError(413, `Body larger than ${BODY_LIMIT} bytes`));
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= BODY_LIMIT) chunks.push(chunk);
		});
		req.on('end', () =>
			size > BODY_LIMIT
				? reject(new ApiError(413, `Body larger than ${BODY_LIMIT} bytes`))
				: resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)),
		);
		req.on('error', reject);
	});
}

/** Answers with a JSON body (the control surface's answers). */
export function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
	send(res, { status, body: jsonBody(value) });
}

function send(res: http.ServerResponse, out: Outcome): void {
	if (res.destroyed) return;
	res.writeHead(out.status, {
		...out.headers,
		'Content-Type': out.body.contentType,
		'Content-Length': Buffer.byteLength(out.body.text),
	});
	res.end(out.body.text);
}

/** Drops the connection with no response (an RST where the platform allows). */
function reset(req: http.IncomingMessage): void {
	const socket = req.socket;
	if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
	else socket.destroy();
}

// Unreferenced: a fault's delay still pending when a test's server closes keeps no process alive.
const sleep = async (ms: number) =>
	await new Promise((resolve) => {
		setTimeout(resolve, ms).unref();
	});
